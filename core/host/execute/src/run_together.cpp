#include "cmdbench/host/execute/run_together.hpp"

#include "cmdbench/host/execute/start_barrier.hpp"
#include "cmdbench/host/plugins/host_services.hpp"

#include <memory>
#include <thread>

namespace cmdbench {
namespace {

// A member's counters into the run's, by source: members on different
// devices add their sources; a source two members share is taken once.
void merge_counters(RunCounters &into, const RunCounters &member) {
    for (const auto &[to, from] :
         {std::pair<std::optional<SideCounters> *, const std::optional<SideCounters> *>{
              &into.client, &member.client},
          {&into.server, &member.server}}) {
        if (!*from) continue;
        if (!*to) to->emplace();
        for (const auto &[source, values] : **from)
            (*to)->emplace(source, values);
    }
    into.same_machine = into.same_machine || member.same_machine;
}

struct Outcome {
    RunResult result;
    uint64_t started_ns = 0; // past the start line, when there is one
    uint64_t ended_ns = 0;
    bool abandoned = false;
};

// One member's client, on its own thread: its own session and a progress
// display that stays quiet (the run's own line stands for all members).
// A session of its own (`owned`) is closed on this thread: a local server
// it started gets SIGTERM when the thread that forked it ends (its parent-
// death signal follows the thread), and would say so on stderr.
void run_member(const ClientState &shared, const TogetherMember &m, unsigned repeat,
                StartBarrier *barrier, Outcome &out) {
    NoProgressDisplay quiet;
    ClientState st{shared.registry, shared.interrupted, quiet};
    st.local_node = shared.local_node;
    bool arrived = false;
    if (barrier)
        st.before_request = [&] {
            arrived = true;
            const auto limit = std::chrono::milliseconds(int64_t(m.spec.timeout_s * 1000));
            barrier->arrive(limit, shared.interrupted);
            out.started_ns = monotonic_ns();
        };
    out.started_ns = monotonic_ns();
    out.result = run_client(st, *m.session, m.spec, repeat);
    out.ended_ns = monotonic_ns();
    if (barrier && !arrived) barrier->leave();
    out.abandoned = st.abandoned;
    if (m.owned && !st.abandoned) close_session(*m.session);
}

} // namespace

TogetherRun run_together(ClientState &st, const std::vector<TogetherMember> &members,
                         unsigned repeat, bool barrier) {
    std::vector<Outcome> outcomes(members.size());
    std::unique_ptr<StartBarrier> start_line;
    if (barrier) start_line = std::make_unique<StartBarrier>(members.size());
    const uint64_t started = monotonic_ns();
    {
        std::vector<std::thread> threads;
        for (size_t i = 0; i < members.size(); ++i)
            threads.emplace_back(run_member, std::cref(st), std::cref(members[i]), repeat,
                                 start_line.get(), std::ref(outcomes[i]));
        for (std::thread &t : threads)
            t.join();
    }
    TogetherRun out;
    for (size_t i = 0; i < outcomes.size(); ++i) {
        const Outcome &o = outcomes[i];
        RailPart part;
        part.label = members[i].label;
        part.status = o.result.status;
        part.error = o.result.error;
        part.start_seconds = double(o.started_ns - started) / 1e9;
        part.wall_seconds =
            barrier ? double(o.ended_ns - o.started_ns) / 1e9 : o.result.wall_seconds;
        part.path = o.result.path;
        merge_counters(out.counters, o.result.counters);
        out.parts.push_back(std::move(part));
        out.rows.emplace_back(members[i].label, o.result.rows);
        // Each member's own connections, hence its own settings, named like its rows.
        for (const auto &[key, value] : o.result.settings)
            out.settings.emplace_back(members[i].label + "/" + key, value);
        if (o.abandoned) st.abandoned = true;
    }
    out.wall_seconds = double(monotonic_ns() - started) / 1e9;
    return out;
}

void combine_status(RunResult &r, const std::vector<RailPart> &parts, const std::string &prefix) {
    for (const RailPart &p : parts)
        if (p.status != RunStatus::Ok) {
            r.status = p.status;
            r.error = prefix + p.label + ": " + p.error;
            return;
        }
}

} // namespace cmdbench

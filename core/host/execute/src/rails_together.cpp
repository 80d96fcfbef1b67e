#include "cmdbench/host/execute/rails_together.hpp"

#include "cmdbench/host/plan/rail_plan.hpp"
#include "cmdbench/host/plugins/host_services.hpp"
#include "cmdbench/report/rail_rows.hpp"

#include <map>
#include <thread>

namespace cmdbench {
namespace {

struct RailOutcome {
    RunResult result;
    uint64_t started_ns = 0;
    bool abandoned = false;
};

// One rail's client, on its own thread: its own session and a progress
// display that stays quiet (the run's own line stands for all rails).
// A session of its own (`owned`) is closed on this thread: a local server
// it started gets SIGTERM when the thread that forked it ends (its parent-
// death signal follows the thread), and would say so on stderr.
void run_one_rail(const ClientState &shared, const RunSpec &member, unsigned repeat,
                  ClientSession &session, bool owned, RailOutcome &out) {
    NoProgressDisplay quiet;
    ClientState st{shared.registry, shared.interrupted, quiet};
    st.local_node = shared.local_node;
    out.started_ns = monotonic_ns();
    out.result = run_client(st, session, member, repeat);
    out.abandoned = st.abandoned;
    if (owned && !st.abandoned) close_session(session);
}

// The run's status: ok when every rail was; else the first rail's that was
// not, with its label.
// Each rail's counters, by source: the rails use different devices; a
// source two rails share (both read it around overlapping runs) is taken once.
void merge_counters(RunCounters &into, const RunCounters &rail) {
    for (const auto &[to, from] :
         {std::pair<std::optional<SideCounters> *, const std::optional<SideCounters> *>{
              &into.client, &rail.client},
          {&into.server, &rail.server}}) {
        if (!*from) continue;
        if (!*to) to->emplace();
        for (const auto &[source, values] : **from)
            (*to)->emplace(source, values);
    }
}

void combine_status(RunResult &r, const std::vector<RailPart> &parts) {
    for (const RailPart &p : parts)
        if (p.status != RunStatus::Ok) {
            r.status = p.status;
            r.error = "rail " + p.label + ": " + p.error;
            return;
        }
}

// Each rail's session. A named server that only this rail uses keeps its
// session from the rail's run alone: a server with --max-clients N then
// serves N rails. Local servers, and rails sharing a server, get sessions of
// their own (`own`).
std::vector<ClientSession *> rail_sessions(const std::vector<RunSpec> &members,
                                           const std::string &token,
                                           std::map<std::string, ClientSession> &sessions,
                                           std::vector<ClientSession> &own) {
    std::map<std::string, size_t> uses; // rails per named server
    for (const RunSpec &m : members)
        ++uses[m.server];
    std::vector<ClientSession *> session(members.size());
    for (size_t i = 0; i < members.size(); ++i) {
        const std::string &rs = members[i].server;
        auto it = sessions.end();
        if (!rs.empty() && uses[rs] == 1) it = sessions.try_emplace(rs).first;
        if (it != sessions.end() && it->second.server.empty()) {
            it->second.server = rs;
            it->second.token = token;
        }
        session[i] = it != sessions.end() ? &it->second : &own[i];
        if (session[i] == &own[i]) {
            own[i].server = rs;
            own[i].token = token;
        }
    }
    return session;
}

} // namespace

RunResult run_rails_together(ClientState &st, const RunSpec &spec, unsigned repeat,
                             const std::string &server, const std::string &token,
                             std::map<std::string, ClientSession> &sessions) {
    const size_t n = spec.rails.size();
    std::vector<RunSpec> members;
    for (size_t i = 0; i < n; ++i) {
        members.push_back(rail_run(spec, i));
        if (members[i].server.empty()) members[i].server = server;
    }
    std::vector<ClientSession> own(n);
    const std::vector<ClientSession *> session = rail_sessions(members, token, sessions, own);
    std::vector<RailOutcome> outcomes(n);
    const uint64_t started = monotonic_ns();
    {
        std::vector<std::thread> threads;
        for (size_t i = 0; i < n; ++i)
            threads.emplace_back(run_one_rail, std::cref(st), std::cref(members[i]), repeat,
                                 std::ref(*session[i]), session[i] == &own[i],
                                 std::ref(outcomes[i]));
        for (std::thread &t : threads)
            t.join();
    }
    RunResult r = result_of(spec, repeat);
    std::vector<std::pair<std::string, std::vector<Row>>> rows;
    for (size_t i = 0; i < outcomes.size(); ++i) {
        const RailOutcome &o = outcomes[i];
        RailPart part;
        part.label = spec.rails[i].label;
        part.status = o.result.status;
        part.error = o.result.error;
        part.start_seconds = double(o.started_ns - started) / 1e9;
        part.wall_seconds = o.result.wall_seconds;
        part.path = o.result.path;
        merge_counters(r.counters, o.result.counters);
        r.rails.push_back(std::move(part));
        rows.emplace_back(spec.rails[i].label, o.result.rows);
        // Each rail's own QPs, hence its own settings, named like its rows.
        for (const auto &[key, value] : o.result.settings)
            r.settings.emplace_back(spec.rails[i].label + "/" + key, value);
        if (o.abandoned) st.abandoned = true;
    }
    combine_status(r, r.rails);
    r.rows = rail_rows(rows);
    r.wall_seconds = double(monotonic_ns() - started) / 1e9;
    return r;
}

} // namespace cmdbench

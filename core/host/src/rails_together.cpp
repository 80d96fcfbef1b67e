#include "rails_together.hpp"

#include "host_services.hpp"
#include "rail_plan.hpp"
#include "rail_rows.hpp"

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
void run_one_rail(const ClientState &shared, const RunSpec &member, unsigned repeat,
                  const std::string &server, const std::string &token, RailOutcome &out) {
    Progress quiet(true);
    ClientState st{shared.registry, shared.interrupted, quiet};
    st.local_node = shared.local_node;
    ClientSession session;
    session.server = server;
    session.token = token;
    out.started_ns = monotonic_ns();
    out.result = run_client(st, session, member, repeat);
    out.abandoned = st.abandoned;
    if (!st.abandoned) close_session(session);
}

// The run's status: ok when every rail was; else the first rail's that was
// not, with its label.
void combine_status(RunResult &r, const std::vector<RailPart> &parts) {
    for (const RailPart &p : parts)
        if (p.status != RunStatus::Ok) {
            r.status = p.status;
            r.error = "rail " + p.label + ": " + p.error;
            return;
        }
}

} // namespace

RunResult run_rails_together(ClientState &st, const RunSpec &spec, unsigned repeat,
                             const std::string &server, const std::string &token) {
    std::vector<RailOutcome> outcomes(spec.rails.size());
    const uint64_t started = monotonic_ns();
    {
        std::vector<std::thread> threads;
        for (size_t i = 0; i < spec.rails.size(); ++i) {
            const RunSpec member = rail_run(spec, i);
            const std::string rail_server = member.server.empty() ? server : member.server;
            threads.emplace_back(run_one_rail, std::cref(st), member, repeat, rail_server,
                                 std::cref(token), std::ref(outcomes[i]));
        }
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
        r.rails.push_back(std::move(part));
        rows.emplace_back(spec.rails[i].label, o.result.rows);
        if (o.abandoned) st.abandoned = true;
    }
    combine_status(r, r.rails);
    r.rows = rail_rows(rows);
    r.wall_seconds = double(monotonic_ns() - started) / 1e9;
    return r;
}

} // namespace cmdbench

#include "cmdbench/host/execute/execute_job.hpp"

#include "cmdbench/host/execute/pairs_together.hpp"
#include "cmdbench/host/execute/rails_together.hpp"
#include "cmdbench/host/execute/under_load.hpp"

namespace cmdbench {
namespace {

RunSpec with_rail_servers(RunSpec spec, const ServerLink &link) {
    for (size_t k = 0; k < spec.rails.size() && k < link.rail_servers.size(); ++k)
        spec.rails[k].server = link.rail_servers[k];
    return spec;
}

void close_sessions(ServerLink &link) {
    for (auto &entry : link.sessions)
        close_session(entry.second);
    link.sessions.clear();
}

} // namespace

ClientSession &session_for(ServerLink &link, const std::string &server) {
    auto [it, added] = link.sessions.try_emplace(server);
    if (added) {
        it->second.server = server;
        it->second.token = link.token;
        it->second.label = link.label;
    }
    return it->second;
}

RunResult execute_job(ClientState &client, const RunPlan &plan, const RunJob &job,
                      ServerLink &link) {
    const RunSpec &spec = plan.spec_of(job.step);
    const unsigned repeat = plan.repeat_of(job.step);
    const std::string &server = spec.server.empty() ? link.server : spec.server;
    if (plan.kind_of(job.step) == JobKind::RailsTogether) {
        RunResult r = run_rails_together(client, with_rail_servers(spec, link), repeat, server,
                                         link.token, link.sessions);
        // A rail's test that could not be stopped may still use its session.
        if (link.one_job && !client.abandoned) close_sessions(link);
        return r;
    }
    if (plan.kind_of(job.step) == JobKind::PairsTogether)
        return run_pairs_together(client, spec, plan.part_of(job.step).pairs, repeat, server,
                                  link.token);
    RunResult r =
        plan.kind_of(job.step) == JobKind::UnderLoad
            ? run_under_load(client, session_for(link, server), spec, repeat, server, link.token)
            : run_client(client, session_for(link, server), spec, repeat);
    if (link.one_job) close_sessions(link);
    return r;
}

RunResult not_run(const RunPlan &plan, const RunJob &job, const std::string &why) {
    RunResult r = result_of(plan.spec_of(job.step), plan.repeat_of(job.step));
    r.status = RunStatus::Interrupted;
    r.error = why;
    return r;
}

} // namespace cmdbench

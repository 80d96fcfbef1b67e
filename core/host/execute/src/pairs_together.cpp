#include "cmdbench/host/execute/pairs_together.hpp"

#include "cmdbench/host/execute/run_together.hpp"
#include "cmdbench/host/plan/pair_plan.hpp"
#include "cmdbench/report/rail_rows.hpp"

namespace cmdbench {

RunResult run_pairs_together(ClientState &st, const RunSpec &spec, unsigned count, unsigned repeat,
                             const std::string &server, const std::string &token) {
    // Sessions of their own, even with one server: a server serves a
    // session's runs one after the other, and these must run at once.
    std::vector<ClientSession> own(count);
    std::vector<TogetherMember> members;
    for (size_t k = 0; k < count; ++k) {
        RunSpec member = pair_member_run(spec, k);
        if (member.server.empty()) member.server = server;
        own[k].server = member.server;
        own[k].token = token;
        members.push_back({std::move(member), pair_label(k), &own[k], true});
    }
    TogetherRun together = run_together(st, members, repeat, true);
    RunResult r = result_of(spec, repeat);
    r.pairs = std::move(together.parts);
    r.pairs_series = spec.series;
    r.settings = std::move(together.settings);
    combine_status(r, r.pairs, "");
    r.rows = rail_rows(together.rows);
    r.wall_seconds = together.wall_seconds;
    return r;
}

} // namespace cmdbench

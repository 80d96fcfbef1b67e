#include "cmdbench/host/execute/rails_together.hpp"

#include "cmdbench/host/execute/run_together.hpp"
#include "cmdbench/host/plan/rail_plan.hpp"
#include "cmdbench/report/rail_rows.hpp"

#include <map>

namespace cmdbench {
namespace {

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
    std::vector<RunSpec> specs;
    for (size_t i = 0; i < n; ++i) {
        specs.push_back(rail_run(spec, i));
        if (specs[i].server.empty()) specs[i].server = server;
    }
    std::vector<ClientSession> own(n);
    const std::vector<ClientSession *> session = rail_sessions(specs, token, sessions, own);
    std::vector<TogetherMember> members;
    for (size_t i = 0; i < n; ++i)
        members.push_back({specs[i], spec.rails[i].label, session[i], session[i] == &own[i]});
    TogetherRun together = run_together(st, members, repeat, false);
    RunResult r = result_of(spec, repeat);
    r.rails = std::move(together.parts);
    r.settings = std::move(together.settings);
    r.counters = std::move(together.counters);
    combine_status(r, r.rails, "rail ");
    r.rows = rail_rows(together.rows);
    r.wall_seconds = together.wall_seconds;
    return r;
}

} // namespace cmdbench

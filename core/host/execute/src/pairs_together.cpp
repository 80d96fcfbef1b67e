#include "cmdbench/host/execute/pairs_together.hpp"

#include "cmdbench/host/execute/run_together.hpp"
#include "cmdbench/host/plan/pair_plan.hpp"
#include "cmdbench/report/rail_rows.hpp"

#include <map>

namespace cmdbench {
namespace {

// The pairs' settings ("pair K/key"): a key every pair set alike once, under
// its own name; one that differs (a QP number) per pair.
std::vector<std::pair<std::string, std::string>>
shared_settings(const std::vector<std::pair<std::string, std::string>> &settings, size_t count) {
    std::map<std::string, std::map<std::string, size_t>> values; // key -> value -> pairs
    std::vector<std::string> order;
    for (const auto &[name, value] : settings) {
        const std::string key = name.substr(name.find('/') + 1);
        if (values[key].empty()) order.push_back(key);
        ++values[key][value];
    }
    std::vector<std::pair<std::string, std::string>> out;
    for (const std::string &key : order) {
        const auto &v = values[key];
        if (v.size() == 1 && v.begin()->second == count) out.emplace_back(key, v.begin()->first);
    }
    for (const auto &[name, value] : settings) {
        const auto &v = values[name.substr(name.find('/') + 1)];
        if (!(v.size() == 1 && v.begin()->second == count)) out.emplace_back(name, value);
    }
    return out;
}

} // namespace

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
    r.settings = shared_settings(together.settings, count);
    combine_status(r, r.pairs, "");
    r.rows = rail_rows(together.rows);
    r.wall_seconds = together.wall_seconds;
    r.counters = std::move(together.counters);
    return r;
}

} // namespace cmdbench

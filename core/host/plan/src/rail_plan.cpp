#include "cmdbench/host/plan/rail_plan.hpp"

namespace cmdbench {

RunSpec rail_run(const RunSpec &spec, size_t i) {
    const Rail &rail = spec.rails.at(i);
    RunSpec r = spec;
    r.rails.clear();
    for (const auto &[k, v] : rail.test_params)
        r.test_params[k] = v;
    for (const auto &[k, v] : rail.transport_params)
        r.transport_params[k] = v;
    r.client_only_params.insert(rail.client_only.begin(), rail.client_only.end());
    if (!rail.server.empty()) r.server = rail.server;
    r.name = spec.name + " @" + rail.label;
    r.variant = spec.variant + "@" + rail.label;
    return r;
}

std::vector<RunSpec> expand_rails(const RunSpec &spec) {
    if (spec.rails.empty()) return {spec};
    std::vector<RunSpec> out;
    for (size_t i = 0; i < spec.rails.size(); ++i)
        out.push_back(rail_run(spec, i));
    RunSpec all = spec;
    all.name = spec.name + " @all rails";
    all.variant = spec.variant + "@all";
    out.push_back(all);
    return out;
}

} // namespace cmdbench

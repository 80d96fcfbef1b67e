#include "cmdbench/host/plan/job_plan.hpp"

#include "cmdbench/host/plan/load_plan.hpp"
#include "cmdbench/host/plan/pair_plan.hpp"
#include "cmdbench/host/plan/rail_plan.hpp"
#include "cmdbench/host/plan/run_order.hpp"

namespace cmdbench {
namespace {

// The parts of one run, in order: itself; or each rail's run, then all; or
// the run alone, then under load; or the run with each count of its pairs.
std::vector<RunPart> parts_of(const RunSpec &spec, size_t run) {
    if (spec.background)
        return {{alone(spec), run, kNoRail, false, 0}, {under_load(spec), run, kNoRail, true, 0}};
    if (!spec.pairs.empty()) {
        std::vector<RunPart> parts;
        for (unsigned count : spec.pairs)
            parts.push_back({pair_count_run(spec, count), run, kNoRail, false, count});
        return parts;
    }
    const std::vector<RunSpec> specs = expand_rails(spec);
    std::vector<RunPart> parts;
    for (size_t k = 0; k < specs.size(); ++k) {
        const int rail = spec.rails.empty() ? kNoRail : k + 1 == specs.size() ? kAllRails : int(k);
        parts.push_back({specs[k], run, rail, false, 0});
    }
    return parts;
}

} // namespace

JobKind RunPlan::kind_of(size_t step) const {
    const RunPart &part = part_of(step);
    if (part.loaded) return JobKind::UnderLoad;
    if (part.pairs > 0) return JobKind::PairsTogether;
    return part.rail == kAllRails ? JobKind::RailsTogether : JobKind::Single;
}

RunPlan plan_pair_runs(const Scenario &scenario) {
    RunPlan plan;
    std::vector<size_t> first_part; // of each run
    for (size_t i = 0; i < scenario.runs.size(); ++i) {
        first_part.push_back(plan.parts.size());
        for (RunPart &p : parts_of(scenario.runs[i], i))
            plan.parts.push_back(std::move(p));
    }
    first_part.push_back(plan.parts.size());
    for (const PlannedRun &planned : plan_runs(scenario.runs, scenario.comparison.order))
        for (size_t p = first_part[planned.run]; p < first_part[planned.run + 1]; ++p)
            plan.steps.push_back({p, planned.repeat});
    return plan;
}

RunPlan plan_matrix_runs(const Scenario &scenario, int ranks,
                         const std::vector<std::string> &rail_labels) {
    RunPlan plan;
    for (size_t i = 0; i < scenario.runs.size(); ++i) {
        RunSpec spec = scenario.runs[i];
        for (size_t k = 0; k < spec.rails.size() && k < rail_labels.size(); ++k)
            spec.rails[k].label = rail_labels[k];
        for (RunPart &p : parts_of(spec, i))
            plan.parts.push_back(std::move(p));
    }
    for (size_t p = 0; p < plan.parts.size(); ++p)
        for (unsigned k = 1; k <= plan.parts[p].spec.repeat; ++k)
            plan.steps.push_back({p, k});
    plan.rounds =
        matrix_schedule(scenario.matrix.pattern, ranks, scenario.matrix.one_pair_at_a_time);
    return plan;
}

} // namespace cmdbench

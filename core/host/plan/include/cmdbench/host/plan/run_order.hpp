// The order a scenario's runs and their repeats execute in (job_plan.hpp).
#pragma once
#include "cmdbench/host/scenario/scenario.hpp"
#include "cmdbench/report/compare/comparison_settings.hpp"

#include <cstddef>
#include <vector>

namespace cmdbench {

struct PlannedRun {
    size_t run;      // index into Scenario::runs
    unsigned repeat; // 1-based
};

// Interleaved: round k runs the k-th repeat of every run that has one, in
// file order (A1 B1 A2 B2 A3, when A repeats 3 times and B 2). Blocked:
// each run's repeats back to back (A1 A2 A3 B1 B2).
std::vector<PlannedRun> plan_runs(const std::vector<RunSpec> &runs, RunOrder order);

} // namespace cmdbench

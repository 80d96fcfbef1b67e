#include "cmdbench/host/plan/run_order.hpp"

#include <algorithm>

namespace cmdbench {

std::vector<PlannedRun> plan_runs(const std::vector<RunSpec> &runs, RunOrder order) {
    std::vector<PlannedRun> plan;
    if (order == RunOrder::Blocked) {
        for (size_t i = 0; i < runs.size(); ++i)
            for (unsigned k = 1; k <= runs[i].repeat; ++k)
                plan.push_back({i, k});
        return plan;
    }
    unsigned rounds = 0;
    for (const auto &r : runs)
        rounds = std::max(rounds, r.repeat);
    for (unsigned k = 1; k <= rounds; ++k)
        for (size_t i = 0; i < runs.size(); ++i)
            if (k <= runs[i].repeat) plan.push_back({i, k});
    return plan;
}

} // namespace cmdbench

#include "compare/row_applicability.hpp"

#include "cmdbench/plugin.h"

namespace cmdbench {

bool row_measured_nothing(const Row &row) {
    bool unmeasured = false;
    for (const auto &m : row.metrics) {
        const MetricMeaning mean = m.meaning;
        if (mean.has(CMDBENCH_METRIC_UNMEASURED)) {
            unmeasured = true;
            continue;
        }
        // A count says how many connections were tried, not what a step took.
        if (mean.kind == CMDBENCH_KIND_COUNT) continue;
        if (m.value != 0) return false;
    }
    for (const auto &h : row.hists)
        if (h.summary.count > 0) return false;
    return unmeasured;
}

} // namespace cmdbench

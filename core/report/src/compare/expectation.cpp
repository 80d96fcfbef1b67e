// Built-in metric names an expectation may use (expectation.hpp).
#include "cmdbench/report/expectation.hpp"

#include "cmdbench/report/compare/comparison.hpp"

namespace cmdbench {

bool Expectations::has_ratio() const {
    for (const auto &[id, b] : metrics)
        if (b.min_ratio || b.max_ratio) return true;
    return false;
}

const std::set<std::string> &builtin_metric_ids() {
    static const std::set<std::string> ids = {
        CompareMetric::LatencyP50.id, CompareMetric::LatencyP99.id, CompareMetric::Bandwidth.id,
        CompareMetric::ConnRate.id,   CompareMetric::StepTime.id,   CompareMetric::CpuPerGB.id,
        CompareMetric::CpuPerConn.id};
    return ids;
}

} // namespace cmdbench

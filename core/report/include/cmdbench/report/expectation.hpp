// Expectations a scenario sets on its runs (`expect`, docs/scenarios.md) and
// the verdicts they give on the results (docs/results.md, "Expectations"):
// what an acceptance run checks, and what `cmdbench run` exit status 3 is.
#pragma once
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace cmdbench {

// Bounds on one comparison metric of each row: absolute (in the metric's
// unit: us, Gb/s, 1/s, ...) and as a ratio to the baseline variant's value.
struct MetricBounds {
    std::optional<double> min, max, min_ratio, max_ratio;
};

struct Expectations {
    // Each bandwidth row at least this fraction of the link rate.
    std::optional<double> link_fraction;
    // Metric id (comparison.hpp: "latency_p99", "bandwidth", or a metric a
    // plugin declared) -> bounds, in the order the scenario gave them.
    std::vector<std::pair<std::string, MetricBounds>> metrics;
    // From [defaults], not the run's own: a metric none of the run's rows
    // has gives no verdict (a default link_fraction does not fail a latency
    // test), where the run's own expectation would give "unknown".
    bool inherited = false;
    bool empty() const { return !link_fraction && metrics.empty(); }
    bool has_ratio() const;
};

// The ids of the built-in comparison metrics, which a scenario may name
// before anything ran (a plugin's own metrics are known only from its rows).
const std::set<std::string> &builtin_metric_ids();

// The check names a metric's bounds table takes.
inline constexpr const char *kBoundKeys[] = {"min", "max", "min_ratio", "max_ratio"};

} // namespace cmdbench

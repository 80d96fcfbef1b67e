// What one run contributes to a comparison: the values of its rows, mapped
// onto comparison metrics (docs/compare.md, "Rows and metrics"). Internal to
// comparison.cpp; separate so the derivation rules can be read on their own.
#pragma once
#include "cmdbench/report/compare/comparison.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cmdbench {

// The item name of the per-run rows (CPU per GB, CPU per connection).
inline constexpr const char *kWholeRunItem = "whole run";

struct CompareSample {
    std::string item;
    double size = 0;
    CompareMetric metric;
    // nullopt: the row exists but has no value for the metric (a step the
    // transport does not have, timed zero times); it still fixes the order.
    std::optional<double> value;
    bool per_run = false; // not from a row: does not count as a size
    // Why a row that measured something still has no value (a percentile of
    // too few samples): an expectation on it cannot pass. Empty otherwise.
    std::string no_value_reason;
};

// The run's comparison group and variant, defaulted as the runner does
// (group: test name; variant: transport, else test name).
std::string run_group(const RunResult &run);
std::string run_variant(const RunResult &run);

// The comparison row of what a run's background moved (docs/loaded-latency.md).
constexpr const char *kBackgroundItem = "background";
constexpr const char *kBackgroundMetric = "background Gb/sec";

// Every sample of an ok run, in row order, restricted to its `compare`
// families, then what its background moved; empty for a run that is not ok.
std::vector<CompareSample> run_samples(const RunResult &run);
// The same, whatever the run's `compare` list says (what expectations and
// link fractions judge).
std::vector<CompareSample> every_sample(const RunResult &run);

} // namespace cmdbench

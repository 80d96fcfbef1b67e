// The scaling table of a `pairs` series (docs/message-rate.md): for each
// count of pairs, the aggregate message rate of each row, the slowest and
// fastest pair's, and the ratio to the smallest count (1 pair, normally).
#pragma once
#include "cmdbench/report/result.hpp"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace cmdbench {

struct ScalingPoint {
    unsigned pairs = 0;
    double aggregate = 0; // the row's sum over the pairs
    double min_pair = 0, max_pair = 0;
    std::optional<double> ratio; // aggregate / the smallest count's
};

struct ScalingRow {
    std::string row;                  // the aggregate row's name ("64")
    std::vector<ScalingPoint> points; // by count, as the series ran
};

// One series, one repetition: the runs of one scenario run with
// `pairs = [...]` that succeeded.
struct PairScaling {
    std::string series; // the scenario run's name
    std::string metric; // the rate metric's key ("msgs/sec" in stream and verbs alike)
    unsigned repeat = 1;
    unsigned base_pairs = 1; // what the ratio is taken against
    std::vector<ScalingRow> rows;
};

// The series in REPORT's runs, in the order their first runs came.
std::vector<PairScaling> pair_scaling(const Report &report);

// "== message rate by pairs: NAME (msgs/sec)" and a table per series;
// nothing when there is none.
void write_scaling_table(std::ostream &out, const std::vector<PairScaling> &series);

} // namespace cmdbench

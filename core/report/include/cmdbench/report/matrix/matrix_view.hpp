// A matrix report's numbers, independent of how they are printed
// (report_matrix_table.cpp, report_matrix_html.cpp): per run, the N x N
// matrix of its main metric and its slowest links (docs/matrix.md).
#pragma once
#include "cmdbench/report/comparison.hpp"
#include "cmdbench/report/result.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cmdbench {

struct MatrixCell {
    bool scheduled = false;      // the pattern has this pair
    std::optional<double> value; // median over the repeats that gave one
    std::string problem;         // "failed: ...", "timed-out: ..." of a repeat that did not
};

struct SlowLink {
    int client = 0, server = 0;
    double value = 0;
    double ratio = 0; // value / the matrix median
};

struct MatrixView {
    std::string run; // run name
    std::string test, transport;
    // The metric shown: latency p50 when a row gives one, else bandwidth,
    // else connection rate; `item` is the row it comes from. No metric: no
    // row gave a value (every pair failed, or a test without one).
    std::optional<CompareMetric> metric;
    std::string item;
    int ranks = 0;
    std::vector<std::vector<MatrixCell>> cells; // [client][server]
    size_t pairs = 0, filled = 0;               // scheduled pairs, and those with a value
    std::optional<double> median;               // of the filled cells
    std::vector<SlowLink> slowest;              // the worst kSlowLinks, worst first
};

constexpr size_t kSlowLinks = 5;

// One view per run name, in the order the runs first appear. `report.matrix`
// must be set (its ranks give N).
std::vector<MatrixView> matrix_views(const Report &report);

// "latency p50 (us) of row 64_lat", for captions.
std::string metric_caption(const MatrixView &v);

} // namespace cmdbench

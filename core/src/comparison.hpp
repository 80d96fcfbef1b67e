// A side-by-side comparison of variants (transports) built from one or more
// reports: what the end of `cmdbench run`, `cmdbench compare` and the HTML
// report all show. Building it (comparison.cpp) is separate from printing it
// (comparison_table.cpp, report_html.cpp).
#pragma once
#include "result.hpp"

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cmdbench {

// What a comparison row measures; decides the plot it lands in and whether
// bigger is better.
enum class CompareMetric {
    LatencyP50,  // one-way latency median, us (half the round trip)
    LatencyP99,  // one-way latency 99th percentile, us
    Bandwidth,   // Gb/s
    ConnRate,    // connections per second
    StepTime,    // one connection step, us per connection
    CpuPerGB,    // CPU seconds (user+sys, both sides) per GB moved
    CpuPerConn,  // CPU microseconds (user+sys, both sides) per connection
};
const char *to_string(CompareMetric m);
const char *unit_of(CompareMetric m); // "us", "Gb/s", "1/s", "s/GB", "us/conn"
bool higher_is_better(CompareMetric m);

// One measured value across the repeats of a run.
struct Spread {
    double median = 0;
    double min = 0;
    double max = 0;
    unsigned n = 0; // how many repeats gave a value (0 = none)
};

enum class Verdict {
    Baseline,          // this cell is the baseline
    Ratio,             // ratio is meaningful
    NoClearDifference, // within the run-to-run spread of either side
    Missing,           // this variant, or the baseline, has no value
};
const char *to_string(Verdict v);

struct CompareCell {
    std::optional<Spread> value;
    std::optional<double> ratio; // value.median / baseline.median
    Verdict verdict = Verdict::Missing;
};

struct CompareRow {
    std::string group; // comparison group (run `group`), e.g. "pingpong"
    std::string item;  // the test's row name, e.g. "64_lat", "connect"
    double size = 0;   // message size in bytes; 0 when the row has none
    CompareMetric metric = CompareMetric::LatencyP50;
    std::vector<CompareCell> cells; // one per Comparison::columns entry
};

struct Comparison {
    std::vector<std::string> columns; // variant labels, in first-seen order
    size_t baseline = 0;              // index into columns
    std::vector<CompareRow> rows;     // grouped by group, then item, then metric
    std::vector<std::string> notes;   // e.g. "rsocket: skipped: no RDMA device"
};

struct CompareError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct CompareOptions {
    std::string baseline;        // variant label; empty = the reports' own baseline
    bool common_only = false;    // compare only what every column has
};

// comparison.cpp. Columns are variants; when several reports carry the same
// variant, their labels are made distinct. Throws CompareError, naming what
// does not line up, when a group's items differ between columns and
// common_only is not set.
Comparison build_comparison(const std::vector<const Report *> &reports,
                            const CompareOptions &options);

// comparison_table.cpp: the text table printed at the end of a run.
void write_comparison_table(std::ostream &out, const Comparison &c);

// report_html.cpp: one self-contained page (inline SVG, no script, no
// network): plots per metric plus the same data as tables.
void write_html_report(std::ostream &out, const Comparison &c,
                       const std::vector<const Report *> &reports);

} // namespace cmdbench

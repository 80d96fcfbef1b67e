// A side-by-side comparison of variants (transports) built from one or more
// reports: what the end of `cmdbench run`, `cmdbench compare` and the HTML
// report all show. Building it (comparison.cpp) is separate from printing it
// (comparison_table.cpp, report_html.cpp).
#pragma once
#include "cmdbench/report/compare/comparison_settings.hpp"
#include "cmdbench/report/result.hpp"

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cmdbench {

// How the HTML report charts a metric family.
enum class ChartStyle {
    Latency, // against message size, log scale; p50 points with p99 whiskers
    Line,    // against message size when every row has one, else bars
    Bars,    // one bar per row
};

// What a comparison row measures: an entry of the one family table
// (compare_metric.cpp), or a family made for a metric a plugin declared
// (ABI 1.2) that no built-in family covers. Everything the comparison, its
// tables, JSON and charts need to know about a metric is here.
struct CompareMetric {
    std::string id;         // JSON "metric": "latency_p50", or the plugin's key
    std::string label;      // text table: "lat p50"
    std::string unit;       // ASCII unit: "us", "Gb/s", "1/s"
    std::string title;      // HTML: "latency p50"
    std::string html_unit;  // HTML: "µs"
    std::string family;     // the scenario `compare` name it answers to: "latency"
    std::string kind;       // plugin.h kind name: "latency", "rate", ...
    std::string chart_what; // bar chart title after the group: "connection step times"
    std::string note;       // extra chart note, or empty
    bool higher_is_better = false;
    ChartStyle chart = ChartStyle::Line;
    int rank = 0; // order of the families of one item: built-ins first

    bool operator==(const CompareMetric &o) const { return id == o.id; }
    bool operator!=(const CompareMetric &o) const { return id != o.id; }

    // The built-in families, what the shipped tests' rows are compared by.
    static const CompareMetric LatencyP50; // one-way latency median, us
    static const CompareMetric LatencyP99; // one-way latency 99th percentile, us
    static const CompareMetric Bandwidth;  // Gb/s
    static const CompareMetric ConnRate;   // connections per second
    static const CompareMetric StepTime;   // one connection step, us per connection
    static const CompareMetric CpuPerGB;   // CPU seconds (user+sys, both sides) per GB moved
    static const CompareMetric CpuPerConn; // CPU us (user+sys, both sides) per connection
};
const char *to_string(const CompareMetric &m); // id
const char *unit_of(const CompareMetric &m);   // "us", "Gb/s", "1/s", "s/GB", "us/conn"
bool higher_is_better(const CompareMetric &m);

// The family of a plugin-declared metric that no built-in family covers:
// named after its key (plus " p50" / " p99" for a histogram's percentiles),
// in the unit the plugin gave (`unit_text`).
CompareMetric declared_metric(const std::string &key, const std::string &unit_text, uint32_t kind,
                              bool higher_is_better);

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
    CompareMetric metric;
    std::vector<CompareCell> cells; // one per Comparison::columns entry
};

struct Comparison {
    std::vector<std::string> columns;          // variant labels, in first-seen order
    size_t baseline = 0;                       // index into columns
    std::vector<CompareRow> rows;              // grouped by group, then item, then metric
    std::vector<std::string> notes;            // e.g. "rsocket: skipped: no RDMA device"
    double spread_limit = kDefaultSpreadLimit; // cells spread wider are flagged
    // software_rdma_notice() when a run went over rxe or siw, else empty:
    // every output says the figures are not RDMA hardware's.
    std::string software_rdma;
};

struct CompareError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct CompareOptions {
    std::string baseline;               // variant label; empty = the reports' own baseline
    bool common_only = false;           // compare only what every column has
    std::optional<double> spread_limit; // unset = the first report's (scenario [comparison])
};

// comparison.cpp. Columns are variants; when several reports carry the same
// variant, their labels are made distinct. Throws CompareError, naming what
// does not line up, when a group's items differ between columns and
// common_only is not set.
Comparison build_comparison(const std::vector<const Report *> &reports,
                            const CompareOptions &options);

// comparison_spread.cpp. A cell's relative spread, (max - min) / |median|
// of its repeats: nothing below two values, infinite when the median is 0
// and they differ. Wide: above the comparison's spread_limit.
std::optional<double> relative_spread(const CompareCell &cell);
bool wide_spread(const Comparison &c, const CompareCell &cell);
size_t count_wide_spreads(const Comparison &c);

// comparison_table.cpp: the text table printed at the end of a run.
void write_comparison_table(std::ostream &out, const Comparison &c);

// report_html.cpp: one self-contained page (inline SVG, no script, no
// network): plots per metric plus the same data as tables, and the verdicts
// of the reports' expectations.
void write_html_report(std::ostream &out, const Comparison &c,
                       const std::vector<const Report *> &reports);

} // namespace cmdbench

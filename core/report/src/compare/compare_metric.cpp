// The one table of comparison metric families: for each, how it is named,
// its unit, which way is better, and how it is charted. Reporters read these
// fields instead of switching over the family.
#include "cmdbench/report/compare/comparison.hpp"
#include "results/metric_meaning.hpp"

#include <cmdbench/plugin.h>

namespace cmdbench {
namespace {

CompareMetric make_family(const char *id, const char *label, const char *unit, const char *title,
                          const char *html_unit, const char *compare_family, uint32_t kind,
                          bool higher, ChartStyle chart, const char *chart_what, const char *note,
                          int rank) {
    CompareMetric m;
    m.id = id;
    m.label = label;
    m.unit = unit;
    m.title = title;
    m.html_unit = html_unit;
    m.family = compare_family;
    m.kind = kind_name(kind);
    m.higher_is_better = higher;
    m.chart = chart;
    m.chart_what = chart_what;
    m.note = note;
    m.rank = rank;
    return m;
}

constexpr const char *kCpuNote = "User + system time, client and server.";

} // namespace

// id, table label, unit, HTML title and unit, `compare` family, kind,
// higher is better, chart, bar chart title, chart note, rank.
const CompareMetric CompareMetric::LatencyP50 =
    make_family("latency_p50", "1-way p50", "us", "one-way latency p50", "µs", "latency",
                CMDBENCH_KIND_LATENCY, false, ChartStyle::Latency, "one-way latency p50", "", 0);
const CompareMetric CompareMetric::LatencyP99 =
    make_family("latency_p99", "1-way p99", "us", "one-way latency p99", "µs", "latency",
                CMDBENCH_KIND_LATENCY, false, ChartStyle::Latency, "one-way latency p99", "", 1);
const CompareMetric CompareMetric::Bandwidth =
    make_family("bandwidth", "bandwidth", "Gb/s", "bandwidth", "Gb/s", "bandwidth",
                CMDBENCH_KIND_BANDWIDTH, true, ChartStyle::Line, "bandwidth", "", 2);
const CompareMetric CompareMetric::ConnRate =
    make_family("conn_rate", "conn rate", "1/s", "connection rate", "connections/s", "connections",
                CMDBENCH_KIND_RATE, true, ChartStyle::Bars, "connections per second", "", 4);
const CompareMetric CompareMetric::StepTime =
    make_family("step_time", "step", "us", "step time", "µs per connection", "steps",
                CMDBENCH_KIND_DURATION, false, ChartStyle::Bars, "connection step times", "", 3);
const CompareMetric CompareMetric::CpuPerGB =
    make_family("cpu_per_gb", "cpu/GB", "s/GB", "CPU per GB", "CPU s/GB", "cpu",
                CMDBENCH_KIND_OTHER, false, ChartStyle::Bars, "CPU time per GB moved", kCpuNote, 5);
const CompareMetric CompareMetric::CpuPerConn = make_family(
    "cpu_per_conn", "cpu/conn", "us/conn", "CPU per connection", "CPU µs/connection", "cpu",
    CMDBENCH_KIND_OTHER, false, ChartStyle::Bars, "CPU time per connection", kCpuNote, 6);

CompareMetric declared_metric(const std::string &key, const std::string &unit_text, uint32_t kind,
                              bool higher_is_better) {
    // Families named after the kind, so a run's `compare` list can pick them.
    const char *compare_family = kind == CMDBENCH_KIND_LATENCY     ? "latency"
                                 : kind == CMDBENCH_KIND_BANDWIDTH ? "bandwidth"
                                                                   : kind_name(kind);
    CompareMetric m = make_family("", "", "", "", "", compare_family, kind, higher_is_better,
                                  ChartStyle::Line, "", "", 100);
    m.id = m.label = m.title = m.chart_what = key;
    m.unit = m.html_unit = unit_text;
    return m;
}

const char *to_string(const CompareMetric &m) {
    return m.id.c_str();
}

const char *unit_of(const CompareMetric &m) {
    return m.unit.c_str();
}

bool higher_is_better(const CompareMetric &m) {
    return m.higher_is_better;
}

} // namespace cmdbench

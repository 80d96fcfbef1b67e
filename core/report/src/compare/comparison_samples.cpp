// Row -> comparison metric rules (docs/compare.md, "Rows and metrics"): by
// what each metric means, as the plugin declared it or its old name gave it.
#include "compare/comparison_samples.hpp"

#include "cmdbench/report/report_format.hpp"
#include "cmdbench/report/run_totals.hpp"

#include <algorithm>
#include <cmath>
#include <cmdbench/plugin.h>

namespace cmdbench {
namespace {

bool finite(const Metric &m) {
    return std::isfinite(m.value);
}

// The samples of one row, each metric by what it means.
class RowSamples {
  public:
    RowSamples(const Row &row, std::vector<CompareSample> &out) : row_(row), out_(out) {
        for (const auto &m : row.metrics)
            if (finite(m) && m.meaning.has(CMDBENCH_METRIC_MESSAGE_SIZE)) {
                size_ = m.value;
                break;
            }
    }

    void add_all() {
        for (const auto &h : row_.hists)
            add_hist(h, h.meaning);
        for (const auto &m : row_.metrics)
            if (finite(m)) add_metric(m, m.meaning);
        add_connection_rate();
    }

  private:
    static bool compared(const MetricMeaning &m) {
        return m.better != CMDBENCH_BETTER_NONE && !m.has(CMDBENCH_METRIC_DETAIL);
    }

    // A built-in family when it fits and the row has not used it yet (two
    // latency histograms in one row: the second gets a family of its own).
    const CompareMetric &pick(const CompareMetric &builtin, bool fits,
                              const CompareMetric &declared) {
        if (fits && std::find(used_.begin(), used_.end(), builtin.id) == used_.end()) {
            used_.push_back(builtin.id);
            return builtin;
        }
        return declared;
    }

    void push(const CompareMetric &m, std::optional<double> value, std::string why = "") {
        out_.push_back({row_.name, size_, m, value, false, std::move(why)});
    }

    // "1 sample, too few for a p99 (it needs 100)"; empty when p is a figure
    // or nothing was measured.
    static std::string too_few(const HistSummary &s, const std::optional<uint64_t> &p,
                               const char *name, double percentile) {
        if (p || s.count == 0) return "";
        return std::to_string(s.count) + (s.count == 1 ? " sample" : " samples") +
               ", too few for a " + name + " (it needs " +
               std::to_string(min_samples_for(percentile)) + ")";
    }

    void add_hist(const HistMetric &h, const MetricMeaning &mean) {
        if (!compared(mean)) return;
        std::optional<double> p50, p99;
        std::string p50_why, p99_why;
        // Histograms hold nanoseconds; comparisons show microseconds, and a
        // round trip as one way.
        const double scale = 1000.0 * (mean.has(CMDBENCH_METRIC_ROUND_TRIP) ? 2 : 1);
        // A percentile of too few samples is no value (min_samples_for).
        if (h.summary.count > 0 && !mean.has(CMDBENCH_METRIC_UNMEASURED)) {
            const HistSummary &s = h.summary;
            if (s.p50) p50 = double(*s.p50) / scale;
            if (s.p99) p99 = double(*s.p99) / scale;
            p50_why = too_few(s, s.p50, "p50", 50);
            p99_why = too_few(s, s.p99, "p99", 99);
        }
        const bool higher = mean.better == CMDBENCH_BETTER_HIGHER;
        // The built-in family is one-way latency ("1-way p50"), which is what a
        // declared round trip is compared as. Any other latency histogram
        // (a plugin's `burst_time`) keeps its own name and says no "one-way".
        const bool one_way =
            mean.kind == CMDBENCH_KIND_LATENCY && !higher && mean.has(CMDBENCH_METRIC_ROUND_TRIP);
        auto own50 = declared_metric(h.key + " p50", "us", mean.kind, higher);
        auto own99 = declared_metric(h.key + " p99", "us", mean.kind, higher);
        own50.html_unit = own99.html_unit = "µs"; // as the built-in latency family's
        push(pick(CompareMetric::LatencyP50, one_way, own50), p50, p50_why);
        push(pick(CompareMetric::LatencyP99, one_way, own99), p99, p99_why);
    }

    void add_metric(const Metric &m, const MetricMeaning &mean) {
        if (!compared(mean)) return;
        const bool higher = mean.better == CMDBENCH_BETTER_HIGHER;
        const bool per_conn = mean.has(CMDBENCH_METRIC_PER_CONNECTION);
        const CompareMetric own = declared_metric(m.key, unit_label(m.unit), mean.kind, higher);
        const CompareMetric *family = &own;
        if (mean.kind == CMDBENCH_KIND_BANDWIDTH)
            family = &pick(CompareMetric::Bandwidth, higher && m.unit == CMDBENCH_UNIT_GBPS, own);
        else if (mean.kind == CMDBENCH_KIND_DURATION && per_conn)
            family = &pick(CompareMetric::StepTime, !higher, own);
        else if (mean.kind == CMDBENCH_KIND_RATE && per_conn)
            family = &pick(CompareMetric::ConnRate, higher, own);
        std::optional<double> value;
        if (!mean.has(CMDBENCH_METRIC_UNMEASURED)) value = m.value;
        push(*family, value);
    }

    // Connections set up over the wall time they took: a row with a COUNT
    // PER_CONNECTION metric and an ELAPSED duration (cmtime's client "full
    // connect": conns and total(us)).
    void add_connection_rate() {
        const Metric *conns = nullptr, *elapsed = nullptr;
        for (const auto &m : row_.metrics) {
            const MetricMeaning mean = m.meaning;
            if (mean.kind == CMDBENCH_KIND_COUNT && mean.has(CMDBENCH_METRIC_PER_CONNECTION))
                conns = conns ? conns : &m;
            if (mean.kind == CMDBENCH_KIND_DURATION && mean.has(CMDBENCH_METRIC_ELAPSED))
                elapsed = elapsed ? elapsed : &m;
        }
        if (!conns || !elapsed) return;
        const double seconds =
            elapsed->unit == CMDBENCH_UNIT_SECONDS ? elapsed->value : elapsed->value / 1e6;
        std::optional<double> rate;
        if (finite(*conns) && finite(*elapsed) && conns->value > 0 && seconds > 0)
            rate = conns->value / seconds;
        push(pick(CompareMetric::ConnRate, true,
                  declared_metric(conns->key + "/s", "1/s", CMDBENCH_KIND_RATE, true)),
             rate);
    }

    const Row &row_;
    std::vector<CompareSample> &out_;
    double size_ = 0;
    std::vector<std::string> used_;
};

void add_cpu_samples(const RunResult &run, std::vector<CompareSample> &out) {
    if (auto per_gb = run_cpu_per_gb(run))
        out.push_back({kWholeRunItem, 0, CompareMetric::CpuPerGB, *per_gb, true, ""});
    if (auto per_conn = run_cpu_per_conn_us(run))
        out.push_back({kWholeRunItem, 0, CompareMetric::CpuPerConn, *per_conn, true, ""});
}

} // namespace

std::string run_group(const RunResult &run) {
    return run.group.empty() ? run.test : run.group;
}

std::string run_variant(const RunResult &run) {
    if (!run.variant.empty()) return run.variant;
    return run.transport.empty() ? run.test : run.transport;
}

std::vector<CompareSample> every_sample(const RunResult &run) {
    std::vector<CompareSample> all;
    if (run.status != RunStatus::Ok) return all;
    for (const auto &row : run.rows)
        RowSamples(row, all).add_all();
    add_cpu_samples(run, all);
    return all;
}

// What the background of a run measured under load moved, beside the
// run's own rows. Not among every_sample's: an expectation on the run's
// bandwidth judges the run, not its background.
void add_background_sample(const RunResult &run, std::vector<CompareSample> &out) {
    if (run.status != RunStatus::Ok || !run.background || !run.background->gbps) return;
    CompareMetric m = declared_metric(kBackgroundMetric, "Gb/s", CMDBENCH_KIND_BANDWIDTH, true);
    m.chart = ChartStyle::Bars;
    m.chart_what = "what the background moved (sum over flows)";
    out.push_back({kBackgroundItem, 0, m, *run.background->gbps, true, ""});
}

std::vector<CompareSample> run_samples(const RunResult &run) {
    std::vector<CompareSample> all = every_sample(run);
    std::vector<CompareSample> kept;
    for (auto &s : all)
        if (run.compare.empty() ||
            std::find(run.compare.begin(), run.compare.end(), s.metric.family) != run.compare.end())
            kept.push_back(std::move(s));
    add_background_sample(run, kept);
    return kept;
}

} // namespace cmdbench

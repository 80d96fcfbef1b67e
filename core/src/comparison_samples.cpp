// Row -> comparison metric rules (docs/compare.md, "Rows and metrics").
#include "comparison_samples.hpp"

#include "run_totals.hpp"

#include <algorithm>
#include <cmath>

namespace cmdbench {
namespace {

const Metric *find_metric(const Row &row, const std::string &key) {
    for (const auto &m : row.metrics)
        if (m.key == key && std::isfinite(m.value)) return &m;
    return nullptr;
}

const HistMetric *find_hist(const Row &row, const std::string &key) {
    for (const auto &h : row.hists)
        if (h.key == key) return &h;
    return nullptr;
}

// The `compare` families a metric belongs to (scenario key `compare`).
const char *family_of(CompareMetric m) {
    switch (m) {
    case CompareMetric::LatencyP50:
    case CompareMetric::LatencyP99:
        return "latency";
    case CompareMetric::Bandwidth:
        return "bandwidth";
    case CompareMetric::ConnRate:
        return "connections";
    case CompareMetric::StepTime:
        return "steps";
    case CompareMetric::CpuPerGB:
    case CompareMetric::CpuPerConn:
        return "cpu";
    }
    return "";
}

bool ends_with(const std::string &s, const std::string &suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Whether a step row timed at least one connection: cmtime's tables list all
// 17 steps, with zeros for the ones a transport (TCP) or a run (no bind
// address) does not have.
bool step_timed(const Row &row) {
    if (const HistMetric *h = find_hist(row, "conn")) return h->summary.count > 0;
    const Metric *sum = find_metric(row, "sum(us)");
    const Metric *max = find_metric(row, "max(us)");
    return (sum && sum->value > 0) || (max && max->value > 0);
}

void add_step_samples(const Row &row, double size, std::vector<CompareSample> &out) {
    const Metric *conns = find_metric(row, "conns");
    if (row.name == "full connect") {
        // The client's "full connect" total runs from the first socket or ID
        // being created to the last connection being established (sock_client
        // and CmEngine::run_client), so conns / total is the connection rate.
        // The server's starts at its first accept, missing one setup; the
        // per-connection "us/conn" is always 0 here, as cmtime zeroes the sum
        // of its overlapping intervals.
        const Metric *total = find_metric(row, "total(us)");
        std::optional<double> rate;
        if (conns && total && conns->value > 0 && total->value > 0)
            rate = conns->value / (total->value / 1e6);
        out.push_back({row.name, size, CompareMetric::ConnRate, rate, false});
        return;
    }
    if (ends_with(row.name, "full connect")) return; // server or no-qp: see above
    const Metric *per_conn = find_metric(row, "us/conn");
    std::optional<double> value;
    if (per_conn && step_timed(row)) value = per_conn->value;
    out.push_back({row.name, size, CompareMetric::StepTime, value, false});
}

void add_row_samples(const Row &row, std::vector<CompareSample> &out) {
    const Metric *bytes = find_metric(row, "bytes");
    const double size = bytes ? bytes->value : 0;
    const Metric *xfers = find_metric(row, "xfers");
    const HistMetric *rtt = find_hist(row, "rtt");
    // One-way latency is half a round trip, as rstream's usec/xfer; on a
    // bandwidth row (several transfers per iteration) the round trip is a
    // burst's, not a message's, so it gives no latency.
    if (rtt && bytes && (!xfers || xfers->value <= 1)) {
        std::optional<double> p50, p99;
        if (rtt->summary.count > 0) {
            p50 = double(rtt->summary.p50) / 2 / 1000;
            p99 = double(rtt->summary.p99) / 2 / 1000;
        }
        out.push_back({row.name, size, CompareMetric::LatencyP50, p50, false});
        out.push_back({row.name, size, CompareMetric::LatencyP99, p99, false});
    }
    if (const Metric *gbps = find_metric(row, "Gb/sec"))
        out.push_back({row.name, size, CompareMetric::Bandwidth, gbps->value, false});
    if (find_metric(row, "us/conn") && find_metric(row, "conns")) add_step_samples(row, size, out);
}

void add_cpu_samples(const RunResult &run, std::vector<CompareSample> &out) {
    if (auto per_gb = run_cpu_per_gb(run))
        out.push_back({kWholeRunItem, 0, CompareMetric::CpuPerGB, *per_gb, true});
    if (auto per_conn = run_cpu_per_conn_us(run))
        out.push_back({kWholeRunItem, 0, CompareMetric::CpuPerConn, *per_conn, true});
}

} // namespace

std::string run_group(const RunResult &run) {
    return run.group.empty() ? run.test : run.group;
}

std::string run_variant(const RunResult &run) {
    if (!run.variant.empty()) return run.variant;
    return run.transport.empty() ? run.test : run.transport;
}

std::vector<CompareSample> run_samples(const RunResult &run) {
    std::vector<CompareSample> all;
    if (run.status != RunStatus::Ok) return all;
    for (const auto &row : run.rows)
        add_row_samples(row, all);
    add_cpu_samples(run, all);
    if (run.compare.empty()) return all;
    std::vector<CompareSample> kept;
    for (auto &s : all)
        if (std::find(run.compare.begin(), run.compare.end(), family_of(s.metric)) !=
            run.compare.end())
            kept.push_back(std::move(s));
    return kept;
}

} // namespace cmdbench

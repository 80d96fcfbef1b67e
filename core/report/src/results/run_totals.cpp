#include "cmdbench/report/run_totals.hpp"

#include <cmath>
#include <cmdbench/plugin.h>

namespace cmdbench {

// Non-finite values (a test that divided by a zero time) would poison every
// figure derived from them; they count as absent.

std::optional<double> run_bytes(const RunResult &r) {
    std::optional<double> sum;
    for (const Row &row : r.rows)
        for (const Metric &m : row.metrics)
            if (std::isfinite(m.value) && m.meaning.has(CMDBENCH_METRIC_MOVED))
                sum = sum.value_or(0) + m.value;
    return sum;
}

std::optional<double> run_connections(const RunResult &r) {
    std::optional<double> most;
    for (const Row &row : r.rows)
        for (const Metric &m : row.metrics) {
            const MetricMeaning mean = m.meaning;
            if (mean.kind == CMDBENCH_KIND_COUNT && mean.has(CMDBENCH_METRIC_PER_CONNECTION) &&
                std::isfinite(m.value) && (!most || m.value > *most))
                most = m.value;
        }
    return most;
}

std::optional<double> run_cpu_seconds(const RunResult &r) {
    if (!r.cpu_client.measured() || !r.cpu_server.measured()) return std::nullopt;
    return r.cpu_client.user_s + r.cpu_client.sys_s + r.cpu_server.user_s + r.cpu_server.sys_s;
}

bool run_measures_latency(const RunResult &r) {
    for (const Row &row : r.rows)
        for (const HistMetric &h : row.hists)
            if (h.meaning.kind == CMDBENCH_KIND_LATENCY &&
                h.meaning.has(CMDBENCH_METRIC_ROUND_TRIP) && !h.meaning.has(CMDBENCH_METRIC_DETAIL))
                return true;
    return false;
}

std::optional<double> run_cpu_per_gb(const RunResult &r) {
    // A latency run's CPU goes on waiting for round trips, not on moving data.
    if (run_measures_latency(r)) return std::nullopt;
    const auto cpu = run_cpu_seconds(r);
    const auto bytes = run_bytes(r);
    if (!cpu || !bytes || !(*bytes > 0)) return std::nullopt;
    return *cpu / (*bytes / 1e9);
}

std::optional<double> run_cpu_per_conn_us(const RunResult &r) {
    const auto cpu = run_cpu_seconds(r);
    const auto conns = run_connections(r);
    if (!cpu || !conns || !(*conns > 0)) return std::nullopt;
    return *cpu * 1e6 / *conns;
}

} // namespace cmdbench

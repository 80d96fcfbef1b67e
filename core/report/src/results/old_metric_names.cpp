#include "cmdbench/report/old_metric_names.hpp"

#include "results/string_suffix.hpp"

#include <cmath>
#include <cmdbench/plugin.h>

namespace cmdbench {
namespace {

// A value that is not finite (a division by a zero time) counts as absent.
const Metric *finite_metric(const Row &row, const std::string &key) {
    for (const auto &m : row.metrics)
        if (m.key == key && std::isfinite(m.value)) return &m;
    return nullptr;
}

// Whether a cmtime step row timed at least one connection: its tables list
// all 17 steps, with zeros for the ones a transport (TCP) or a run (no bind
// address) does not have.
bool step_timed(const Row &row) {
    if (const HistMetric *h = find_hist(row, "conn")) return h->summary.count > 0;
    const Metric *sum = finite_metric(row, "sum(us)");
    const Metric *max = finite_metric(row, "max(us)");
    return (sum && sum->value > 0) || (max && max->value > 0);
}

MetricMeaning meaning(uint32_t kind, uint32_t better, uint32_t flags = 0) {
    return MetricMeaning{kind, better, flags, true};
}

// cmtime's step rows (rdmacm): a time per connection, and the client's
// "full connect".
MetricMeaning step_meaning(const Row &row, const Metric &m) {
    // The client's "full connect" runs from the first socket or ID being
    // created to the last connection established, so conns / total(us) is
    // the connection rate; its us/conn is always 0 (cmtime zeroes the sum of
    // overlapping intervals). The server's starts at its first accept,
    // missing one setup: not compared.
    if (row.name == "full connect" && m.key == "total(us)")
        return meaning(CMDBENCH_KIND_DURATION, CMDBENCH_BETTER_NONE, CMDBENCH_METRIC_ELAPSED);
    if (m.key != "us/conn" || ends_with(row.name, "full connect")) return {};
    return meaning(CMDBENCH_KIND_DURATION, CMDBENCH_BETTER_LOWER,
                   CMDBENCH_METRIC_PER_CONNECTION |
                       (step_timed(row) ? 0u : uint32_t(CMDBENCH_METRIC_UNMEASURED)));
}

MetricMeaning old_meaning(const Row &row, const Metric &m) {
    if (m.key == "bytes" && m.unit == CMDBENCH_UNIT_BYTES)
        return meaning(CMDBENCH_KIND_BYTES, CMDBENCH_BETTER_NONE, CMDBENCH_METRIC_MESSAGE_SIZE);
    if (m.key == "total" && m.unit == CMDBENCH_UNIT_BYTES)
        return meaning(CMDBENCH_KIND_BYTES, CMDBENCH_BETTER_NONE, CMDBENCH_METRIC_MOVED);
    if (m.key == "Gb/sec") return meaning(CMDBENCH_KIND_BANDWIDTH, CMDBENCH_BETTER_HIGHER);
    if (m.key == "conns")
        return meaning(CMDBENCH_KIND_COUNT, CMDBENCH_BETTER_NONE, CMDBENCH_METRIC_PER_CONNECTION);
    const bool step_row = finite_metric(row, "us/conn") && finite_metric(row, "conns");
    return step_row ? step_meaning(row, m) : MetricMeaning{};
}

MetricMeaning old_meaning(const Row &row, const HistMetric &h) {
    if (h.key != "rtt" || !finite_metric(row, "bytes")) return {};
    // One-way latency is half a round trip, as rstream's usec/xfer; on a
    // bandwidth row (several transfers per iteration) the round trip is a
    // burst's, not a message's, so it gives no latency.
    const Metric *xfers = finite_metric(row, "xfers");
    const uint32_t detail = xfers && xfers->value > 1 ? CMDBENCH_METRIC_DETAIL : 0;
    return meaning(CMDBENCH_KIND_LATENCY, CMDBENCH_BETTER_LOWER,
                   CMDBENCH_METRIC_ROUND_TRIP | detail);
}

} // namespace

void give_old_name_meanings(Row &row) {
    for (Metric &m : row.metrics)
        if (!m.meaning.declared()) m.meaning = old_meaning(row, m);
    for (HistMetric &h : row.hists)
        if (!h.meaning.declared()) h.meaning = old_meaning(row, h);
}

} // namespace cmdbench

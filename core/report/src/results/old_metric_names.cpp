#include "cmdbench/report/old_metric_names.hpp"

#include "results/string_suffix.hpp"

#include <cmath>
#include <cmdbench/plugin.h>

namespace cmdbench {
namespace {

// The metrics and histogram the rules read, each found in one pass over the
// row: looking them up again for every metric was quadratic in a row's
// metrics. A value that is not finite (a division by a zero time) counts as
// absent.
struct OldNames {
    const Metric *bytes = nullptr, *xfers = nullptr, *conns = nullptr, *us_per_conn = nullptr,
                 *sum = nullptr, *max = nullptr;
    const HistMetric *conn = nullptr;

    explicit OldNames(const Row &row) {
        const std::pair<const char *, const Metric **> wanted[] = {
            {"bytes", &bytes},         {"xfers", &xfers}, {"conns", &conns},
            {"us/conn", &us_per_conn}, {"sum(us)", &sum}, {"max(us)", &max}};
        for (const Metric &m : row.metrics)
            if (std::isfinite(m.value))
                for (const auto &[key, found] : wanted)
                    if (!*found && m.key == key) *found = &m;
        for (const HistMetric &h : row.hists)
            if (!conn && h.key == "conn") conn = &h;
    }
};

// Whether a cmtime step row timed at least one connection: its tables list
// all 17 steps, with zeros for the ones a transport (TCP) or a run (no bind
// address) does not have.
bool step_timed(const OldNames &names) {
    if (names.conn) return names.conn->summary.count > 0;
    return (names.sum && names.sum->value > 0) || (names.max && names.max->value > 0);
}

MetricMeaning meaning(uint32_t kind, uint32_t better, uint32_t flags = 0) {
    return MetricMeaning{kind, better, flags, true};
}

// cmtime's step rows (rdmacm): a time per connection, and the client's
// "full connect".
MetricMeaning step_meaning(const Row &row, const OldNames &names, const Metric &m) {
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
                       (step_timed(names) ? 0u : uint32_t(CMDBENCH_METRIC_UNMEASURED)));
}

MetricMeaning old_meaning(const Row &row, const OldNames &names, const Metric &m) {
    if (m.key == "bytes" && m.unit == CMDBENCH_UNIT_BYTES)
        return meaning(CMDBENCH_KIND_BYTES, CMDBENCH_BETTER_NONE, CMDBENCH_METRIC_MESSAGE_SIZE);
    if (m.key == "total" && m.unit == CMDBENCH_UNIT_BYTES)
        return meaning(CMDBENCH_KIND_BYTES, CMDBENCH_BETTER_NONE, CMDBENCH_METRIC_MOVED);
    if (m.key == "Gb/sec") return meaning(CMDBENCH_KIND_BANDWIDTH, CMDBENCH_BETTER_HIGHER);
    if (m.key == "conns")
        return meaning(CMDBENCH_KIND_COUNT, CMDBENCH_BETTER_NONE, CMDBENCH_METRIC_PER_CONNECTION);
    const bool step_row = names.us_per_conn && names.conns;
    return step_row ? step_meaning(row, names, m) : MetricMeaning{};
}

MetricMeaning old_meaning(const OldNames &names, const HistMetric &h) {
    if (h.key != "rtt" || !names.bytes) return {};
    // One-way latency is half a round trip, as rstream's usec/xfer; on a
    // bandwidth row (several transfers per iteration) the round trip is a
    // burst's, not a message's, so it gives no latency.
    const uint32_t detail = names.xfers && names.xfers->value > 1 ? CMDBENCH_METRIC_DETAIL : 0;
    return meaning(CMDBENCH_KIND_LATENCY, CMDBENCH_BETTER_LOWER,
                   CMDBENCH_METRIC_ROUND_TRIP | detail);
}

} // namespace

void give_old_name_meanings(Row &row) {
    const OldNames names(row); // the meanings given below do not change what it found
    for (Metric &m : row.metrics)
        if (!m.meaning.declared()) m.meaning = old_meaning(row, names, m);
    for (HistMetric &h : row.hists)
        if (!h.meaning.declared()) h.meaning = old_meaning(names, h);
}

} // namespace cmdbench

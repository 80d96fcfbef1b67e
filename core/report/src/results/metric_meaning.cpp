#include "results/metric_meaning.hpp"

#include "results/string_suffix.hpp"

#include <cmath>
#include <cmdbench/plugin.h>

namespace cmdbench {
namespace {

constexpr const char *kKindNames[] = {"undeclared", "latency", "bandwidth", "rate",
                                      "count",      "bytes",   "duration",  "other"};
constexpr const char *kBetterNames[] = {"none", "lower", "higher"};
constexpr const char *kFlagNames[] = {"round_trip", "per_connection", "message_size", "moved",
                                      "elapsed",    "detail",         "unmeasured"};

const Metric *find_metric(const Row &row, const std::string &key) {
    for (const auto &m : row.metrics)
        if (m.key == key && std::isfinite(m.value)) return &m;
    return nullptr;
}

// Whether a cmtime step row timed at least one connection: its tables list
// all 17 steps, with zeros for the ones a transport (TCP) or a run (no bind
// address) does not have.
bool step_timed(const Row &row) {
    for (const auto &h : row.hists)
        if (h.key == "conn") return h.summary.count > 0;
    const Metric *sum = find_metric(row, "sum(us)");
    const Metric *max = find_metric(row, "max(us)");
    return (sum && sum->value > 0) || (max && max->value > 0);
}

MetricMeaning meaning(uint32_t kind, uint32_t better, uint32_t flags = 0) {
    return MetricMeaning{kind, better, flags};
}

// The names stream (rstream's columns) and rdmacm (cmtime's) reported
// before plugins could say what a metric means.
MetricMeaning legacy_meaning(const Row &row, const Metric &m) {
    if (m.key == "bytes" && m.unit == CMDBENCH_UNIT_BYTES)
        return meaning(CMDBENCH_KIND_BYTES, CMDBENCH_BETTER_NONE, CMDBENCH_METRIC_MESSAGE_SIZE);
    if (m.key == "total" && m.unit == CMDBENCH_UNIT_BYTES)
        return meaning(CMDBENCH_KIND_BYTES, CMDBENCH_BETTER_NONE, CMDBENCH_METRIC_MOVED);
    if (m.key == "Gb/sec") return meaning(CMDBENCH_KIND_BANDWIDTH, CMDBENCH_BETTER_HIGHER);
    if (m.key == "conns")
        return meaning(CMDBENCH_KIND_COUNT, CMDBENCH_BETTER_NONE, CMDBENCH_METRIC_PER_CONNECTION);
    const bool step_row = find_metric(row, "us/conn") && find_metric(row, "conns");
    if (!step_row) return {};
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

MetricMeaning legacy_meaning(const Row &row, const HistMetric &h) {
    if (h.key != "rtt" || !find_metric(row, "bytes")) return {};
    // One-way latency is half a round trip, as rstream's usec/xfer; on a
    // bandwidth row (several transfers per iteration) the round trip is a
    // burst's, not a message's, so it gives no latency.
    const Metric *xfers = find_metric(row, "xfers");
    const uint32_t detail = xfers && xfers->value > 1 ? CMDBENCH_METRIC_DETAIL : 0;
    return meaning(CMDBENCH_KIND_LATENCY, CMDBENCH_BETTER_LOWER,
                   CMDBENCH_METRIC_ROUND_TRIP | detail);
}

template <size_t N> uint32_t index_of(const char *const (&names)[N], const std::string &name) {
    for (size_t i = 0; i < N; ++i)
        if (name == names[i]) return uint32_t(i);
    return 0;
}

} // namespace

MetricMeaning meaning_of(const Row &row, const Metric &m) {
    return m.meaning.declared() ? m.meaning : legacy_meaning(row, m);
}

MetricMeaning meaning_of(const Row &row, const HistMetric &h) {
    return h.meaning.declared() ? h.meaning : legacy_meaning(row, h);
}

const char *kind_name(uint32_t kind) {
    return kind < std::size(kKindNames) ? kKindNames[kind] : kKindNames[0];
}

uint32_t kind_code(const std::string &name) {
    return index_of(kKindNames, name);
}

const char *better_name(uint32_t better) {
    return better < std::size(kBetterNames) ? kBetterNames[better] : kBetterNames[0];
}

uint32_t better_code(const std::string &name) {
    return index_of(kBetterNames, name);
}

std::vector<std::string> flag_names(uint32_t flags) {
    std::vector<std::string> out;
    for (size_t i = 0; i < std::size(kFlagNames); ++i)
        if (flags & (1u << i)) out.push_back(kFlagNames[i]);
    return out;
}

uint32_t flag_code(const std::string &name) {
    for (size_t i = 0; i < std::size(kFlagNames); ++i)
        if (name == kFlagNames[i]) return 1u << i;
    return 0;
}

} // namespace cmdbench

// Result rows: beginning one (a host that refuses fails the run) and what
// the common metrics mean (ABI 1.2), so the host compares, charts and totals
// them by meaning rather than by name, the same way for every plugin.
#ifndef CMDBENCH_PLUGIN_SUPPORT_RESULT_ROWS_HPP
#define CMDBENCH_PLUGIN_SUPPORT_RESULT_ROWS_HPP

#include <cmdbench/plugin.h>
#include <string>

namespace cmdbench::support {

// row_begin, or RunError "row_begin failed".
cmdbench_row *begin_row(const cmdbench_host &host, cmdbench_ctx *ctx, const std::string &name);

namespace meaning {

constexpr cmdbench_metric_meaning kMessageSize = CMDBENCH_MEANING_MESSAGE_SIZE;
constexpr cmdbench_metric_meaning kMoved = CMDBENCH_MEANING_MOVED;
constexpr cmdbench_metric_meaning kCount = CMDBENCH_MEANING_COUNT;
constexpr cmdbench_metric_meaning kElapsed = CMDBENCH_MEANING_ELAPSED_DETAIL;
constexpr cmdbench_metric_meaning kBandwidth = CMDBENCH_MEANING_BANDWIDTH;
constexpr cmdbench_metric_meaning kRate = CMDBENCH_MEANING_RATE;
// Per-transfer latency and message rate next to a histogram or bandwidth
// that compares the same thing: shown, not compared.
constexpr cmdbench_metric_meaning kPerTransfer =
    CMDBENCH_MEANING(CMDBENCH_KIND_LATENCY, CMDBENCH_BETTER_LOWER, CMDBENCH_METRIC_DETAIL);
// The same, said to be one way (half a measured round trip) or a whole
// round trip, so the table's header says which (ABI 1.3).
constexpr cmdbench_metric_meaning kPerTransferOneWay = CMDBENCH_MEANING(
    CMDBENCH_KIND_LATENCY, CMDBENCH_BETTER_LOWER, CMDBENCH_METRIC_DETAIL | CMDBENCH_METRIC_ONE_WAY);
constexpr cmdbench_metric_meaning kPerTransferRoundTrip =
    CMDBENCH_MEANING(CMDBENCH_KIND_LATENCY, CMDBENCH_BETTER_LOWER,
                     CMDBENCH_METRIC_DETAIL | CMDBENCH_METRIC_ROUND_TRIP);
constexpr cmdbench_metric_meaning kMessageRate =
    CMDBENCH_MEANING(CMDBENCH_KIND_RATE, CMDBENCH_BETTER_HIGHER, CMDBENCH_METRIC_DETAIL);
// One QP's (one part's) bandwidth next to the row's total.
constexpr cmdbench_metric_meaning kBandwidthDetail =
    CMDBENCH_MEANING(CMDBENCH_KIND_BANDWIDTH, CMDBENCH_BETTER_HIGHER, CMDBENCH_METRIC_DETAIL);
// A latency row's round trip is one message each way; a bandwidth row's is a
// burst's, which is no message latency.
constexpr cmdbench_metric_meaning kRoundTrip = CMDBENCH_MEANING_ROUND_TRIP;
// One operation's whole latency that is no message each way (an RDMA READ or
// atomic: request and answer, what perftest reports unhalved): compared as
// it is, under its own name, never halved into one-way latency.
constexpr cmdbench_metric_meaning kOpLatency = CMDBENCH_MEANING_LATENCY;
constexpr cmdbench_metric_meaning kBurstRoundTrip =
    CMDBENCH_MEANING(CMDBENCH_KIND_LATENCY, CMDBENCH_BETTER_LOWER,
                     CMDBENCH_METRIC_ROUND_TRIP | CMDBENCH_METRIC_DETAIL);

} // namespace meaning
} // namespace cmdbench::support

#endif

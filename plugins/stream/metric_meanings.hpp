// What stream's row metrics mean (ABI 1.2), so the host compares, charts and
// totals them by meaning rather than by name.
#pragma once
#include <cmdbench/plugin.h>

namespace stream_meaning {

constexpr cmdbench_metric_meaning kMessageSize = CMDBENCH_MEANING_MESSAGE_SIZE;
constexpr cmdbench_metric_meaning kMoved = CMDBENCH_MEANING_MOVED;
constexpr cmdbench_metric_meaning kCount = CMDBENCH_MEANING_COUNT;
constexpr cmdbench_metric_meaning kElapsed = CMDBENCH_MEANING_ELAPSED_DETAIL;
constexpr cmdbench_metric_meaning kBandwidth = CMDBENCH_MEANING_BANDWIDTH;
// rstream's usec/xfer and msgs/s: the rtt histogram and Gb/sec compare the same.
constexpr cmdbench_metric_meaning kPerTransfer =
    CMDBENCH_MEANING(CMDBENCH_KIND_LATENCY, CMDBENCH_BETTER_LOWER, CMDBENCH_METRIC_DETAIL);
constexpr cmdbench_metric_meaning kMessageRate =
    CMDBENCH_MEANING(CMDBENCH_KIND_RATE, CMDBENCH_BETTER_HIGHER, CMDBENCH_METRIC_DETAIL);
// A latency row's round trip is one message each way; a bandwidth row's is a
// burst's, which is no message latency.
constexpr cmdbench_metric_meaning kRoundTrip = CMDBENCH_MEANING_ROUND_TRIP;
constexpr cmdbench_metric_meaning kBurstRoundTrip =
    CMDBENCH_MEANING(CMDBENCH_KIND_LATENCY, CMDBENCH_BETTER_LOWER,
                     CMDBENCH_METRIC_ROUND_TRIP | CMDBENCH_METRIC_DETAIL);

} // namespace stream_meaning

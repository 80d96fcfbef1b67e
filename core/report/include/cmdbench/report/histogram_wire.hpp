// The byte form of Histogram::Wire that peers exchange (host services
// hist_send / hist_recv): a fixed header with the exact moments, then the
// non-empty buckets as (index, count) pairs. At most kHistWireMaxBytes
// (about 87 KiB) whatever the sample count, so one histogram always fits one
// control-channel message.
#pragma once
#include "cmdbench/report/histogram.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cmdbench {

// magic (4) + count, min, max, sum, sum_sq (8 each) + bucket count (4).
constexpr size_t kHistWireHeaderBytes = 4 + 5 * 8 + 4;
constexpr size_t kHistWireBucketBytes = 4 + 8;
constexpr size_t kHistWireMaxBytes =
    kHistWireHeaderBytes + size_t{Histogram::kBucketCount} * kHistWireBucketBytes;

std::vector<uint8_t> encode_hist_wire(const Histogram &h);

// Validates every field (length, magic, bucket list, moments) and throws
// std::invalid_argument("bad histogram: ...") on anything malformed.
Histogram decode_hist_wire(const uint8_t *data, size_t size);

} // namespace cmdbench

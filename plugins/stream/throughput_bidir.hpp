// throughput with bidirectional = true (iperf3 --bidir): both peers send and
// receive at once over the one data connection of each size.
#ifndef CMDBENCH_STREAM_THROUGHPUT_BIDIR_HPP
#define CMDBENCH_STREAM_THROUGHPUT_BIDIR_HPP

#include "stream_io.hpp"

#include <cstdint>

namespace cmdbench::stream {

// How long each sender streams: `duration` seconds, or `bytes` when it is 0.
struct Limits {
    double duration;
    uint64_t bytes;
};

// Refuses what one thread serving both directions cannot do (blocking calls).
void check_bidir_params(const IoMode &mode);

// One size on a connected channel, both roles: stream both ways at once
// until each sender is done and each receiver saw the peer's EOF, swap the
// figures, check every byte arrived, and (client) report the rows
// "<size> c2s", "<size> s2c" and "<size> bidir". `buf` holds `size` bytes.
void run_bidir_size(const Run &s, DataChannel &channel, uint8_t *buf, int64_t size,
                    const Limits &limits);

} // namespace cmdbench::stream

#endif

// The rows of a bidirectional bandwidth measurement: one per direction
// ("64k c2s": data from the client to the server, "64k s2c") and their sum
// ("64k bidir"), with where each direction ran on one time line so that a
// reader (and a test) can see the directions overlapped.
#ifndef CMDBENCH_BIDIR_ROWS_HPP
#define CMDBENCH_BIDIR_ROWS_HPP

#include "cmdbench/bidir/peer_clock.hpp"

#include <cmdbench/plugin.h>
#include <cstdint>
#include <string>

namespace cmdbench::bidir {

enum class Direction { ClientToServer, ServerToClient, Both };

// "<size label> c2s", "<size label> s2c", "<size label> bidir".
std::string row_name(const std::string &size_label, Direction d);

// When one direction's measured data moved, on one clock (the client's).
struct Span {
    uint64_t start_ns = 0, end_ns = 0;
    uint64_t ns() const { return end_ns > start_ns ? end_ns - start_ns : 0; }
};

// Both directions on the time line that starts when the first one did.
struct Timeline {
    Span c2s, s2c;
    uint64_t origin_ns() const;
    // The union: first start to last end, the window the sum row divides by.
    uint64_t union_ns() const;
    // Both directions moving at once.
    uint64_t overlap_ns() const;
};

// Row metrics of the time line, seconds from its origin: `start` and `end`
// of a direction's row; the sum row's `overlap`, and `clock_offset` and
// `clock_error`: how far the server's clock was from the client's and the
// most that estimate can be off by, which bounds how exactly the server's
// window sits on the line. Context, never compared.
void put_span(const cmdbench_host &h, cmdbench_row *row, const Timeline &t, Direction d);
void put_overlap(const cmdbench_host &h, cmdbench_row *row, const Timeline &t,
                 const PeerClock &clock);

// The sum row's `total`: both directions' bytes, which the directions' rows
// already count as moved (so not counted again in the run's CPU per GB).
extern const cmdbench_metric_meaning kSumBytes;

} // namespace cmdbench::bidir

#endif

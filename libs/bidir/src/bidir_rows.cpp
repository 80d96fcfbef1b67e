// Bidirectional rows and their time line (see bidir_rows.hpp).
#include "cmdbench/bidir/bidir_rows.hpp"

#include <algorithm>

namespace cmdbench::bidir {
namespace {

const cmdbench_metric_meaning kPosition =
    CMDBENCH_MEANING(CMDBENCH_KIND_DURATION, CMDBENCH_BETTER_NONE, 0);

double seconds(uint64_t ns) {
    return double(ns) / 1e9;
}

} // namespace

const cmdbench_metric_meaning kSumBytes =
    CMDBENCH_MEANING(CMDBENCH_KIND_BYTES, CMDBENCH_BETTER_NONE, 0);

std::string row_name(const std::string &size_label, Direction d) {
    switch (d) {
    case Direction::ClientToServer:
        return size_label + " c2s";
    case Direction::ServerToClient:
        return size_label + " s2c";
    case Direction::Both:
        break;
    }
    return size_label + " bidir";
}

uint64_t Timeline::origin_ns() const {
    return std::min(c2s.start_ns, s2c.start_ns);
}

uint64_t Timeline::union_ns() const {
    const uint64_t end = std::max(c2s.end_ns, s2c.end_ns);
    return end > origin_ns() ? end - origin_ns() : 0;
}

uint64_t Timeline::overlap_ns() const {
    const uint64_t start = std::max(c2s.start_ns, s2c.start_ns);
    const uint64_t end = std::min(c2s.end_ns, s2c.end_ns);
    return end > start ? end - start : 0;
}

void put_span(const cmdbench_host &h, cmdbench_row *row, const Timeline &t, Direction d) {
    const Span &s = d == Direction::ClientToServer ? t.c2s : t.s2c;
    const uint64_t origin = t.origin_ns();
    h.row_metric_ex(row, "start", seconds(s.start_ns - origin), CMDBENCH_UNIT_SECONDS, &kPosition);
    h.row_metric_ex(row, "end", seconds(std::max(s.end_ns, s.start_ns) - origin),
                    CMDBENCH_UNIT_SECONDS, &kPosition);
}

void put_overlap(const cmdbench_host &h, cmdbench_row *row, const Timeline &t,
                 const PeerClock &clock) {
    h.row_metric_ex(row, "overlap", seconds(t.overlap_ns()), CMDBENCH_UNIT_SECONDS, &kPosition);
    h.row_metric_ex(row, "clock_offset", double(clock.offset_ns) / 1e9, CMDBENCH_UNIT_SECONDS,
                    &kPosition);
    h.row_metric_ex(row, "clock_error", seconds(clock.uncertainty_ns), CMDBENCH_UNIT_SECONDS,
                    &kPosition);
}

} // namespace cmdbench::bidir

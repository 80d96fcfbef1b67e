// verbs-bw's figures and rows: one QP set's messages and time, reported as
// one row (the one-way test) or as a direction of a bidirectional one.
#ifndef CMDBENCH_VERBS_BW_ROWS_HPP
#define CMDBENCH_VERBS_BW_ROWS_HPP

#include "bw/bw_pump.hpp"

#include <cmdbench/plugin.h>
#include <string>
#include <vector>

namespace cmdbench::verbs {

// All QPs of one side: timed messages from the first post of any QP to the
// last completion of any, and the slowest and fastest QP, each over its own
// time (Gb/s); the peak is the sum of the QPs' peaks (QpFigures).
struct BwFigures {
    uint64_t msgs = 0;
    uint64_t start_ns = 0, end_ns = 0;
    double min_qp_gbps = 0, max_qp_gbps = 0;
    double peak_gbps = 0;
    uint64_t ns() const { return end_ns > start_ns ? end_ns - start_ns : 0; }
};

BwFigures sum_qps(int64_t size, const std::vector<QpFigures> &figures);

// 6 big-endian u64 fields (the rates as IEEE-754 bits), for the peer.
std::vector<uint8_t> encode_figures(const BwFigures &f);
BwFigures decode_figures(const std::vector<uint8_t> &bytes);

// Starts row `name` with verbs-bw's metrics for `f` (bytes, xfers, total,
// time, Gb/sec, peak Gb/sec, msgs/sec, qps, and with qps > 1 min/max QP
// Gb/sec); `total`
// with the meaning given. The caller may add metrics, then ends the row.
cmdbench_row *begin_bw_row(Run &run, const Params &p, const std::string &name, int64_t size,
                           const BwFigures &f, const cmdbench_metric_meaning &total_meaning);

} // namespace cmdbench::verbs

#endif

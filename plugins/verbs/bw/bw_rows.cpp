// verbs-bw's figures and rows (see bw_rows.hpp).
#include "bw/bw_rows.hpp"

#include <algorithm>
#include <cmdbench/plugin-support/result_rows.hpp>
#include <cstring>

namespace cmdbench::verbs {
namespace {

uint64_t bits_of(double v) {
    uint64_t b = 0;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

double double_of(uint64_t b) {
    double v = 0;
    std::memcpy(&v, &b, sizeof v);
    return v;
}

} // namespace

BwFigures sum_qps(int64_t size, const std::vector<QpFigures> &figures) {
    BwFigures out;
    out.start_ns = kUnknown;
    for (size_t i = 0; i < figures.size(); ++i) {
        const QpFigures &f = figures[i];
        out.msgs += f.msgs;
        out.start_ns = std::min(out.start_ns, f.start_ns);
        out.end_ns = std::max(out.end_ns, f.end_ns);
        const double ns = double(std::max<uint64_t>(f.end_ns - f.start_ns, 1));
        const double gbps = double(f.msgs) * double(size) * 8.0 / ns;
        out.min_qp_gbps = i == 0 ? gbps : std::min(out.min_qp_gbps, gbps);
        out.max_qp_gbps = i == 0 ? gbps : std::max(out.max_qp_gbps, gbps);
        out.peak_gbps += f.peak_gbps;
    }
    if (out.end_ns < out.start_ns) fail("verbs-bw: a QP has no end time (internal error)");
    return out;
}

std::vector<uint8_t> encode_figures(const BwFigures &f) {
    return encode_counts({f.msgs, f.start_ns, f.end_ns, bits_of(f.min_qp_gbps),
                          bits_of(f.max_qp_gbps), bits_of(f.peak_gbps)});
}

BwFigures decode_figures(const std::vector<uint8_t> &bytes) {
    if (bytes.size() != 6 * 8) fail("verbs-bw: the peer's figures are malformed");
    const std::vector<uint64_t> v = decode_counts(bytes, 6);
    BwFigures f;
    f.msgs = v[0];
    f.start_ns = v[1];
    f.end_ns = v[2];
    f.min_qp_gbps = double_of(v[3]);
    f.max_qp_gbps = double_of(v[4]);
    f.peak_gbps = double_of(v[5]);
    return f;
}

cmdbench_row *begin_bw_row(Run &run, const Params &p, const std::string &name, int64_t size,
                           const BwFigures &f, const cmdbench_metric_meaning &total_meaning) {
    const cmdbench_host &h = run.host();
    const double ns = double(std::max<uint64_t>(f.ns(), 1));
    const double bytes = double(f.msgs) * double(size);
    cmdbench_row *row = cmdbench::support::begin_row(h, run.ctx(), name);
    namespace m = cmdbench::support::meaning;
    h.row_metric_ex(row, "bytes", double(size), CMDBENCH_UNIT_BYTES, &m::kMessageSize);
    h.row_metric_ex(row, "xfers", double(f.msgs), CMDBENCH_UNIT_COUNT, &m::kCount);
    h.row_metric_ex(row, "total", bytes, CMDBENCH_UNIT_BYTES, &total_meaning);
    h.row_metric_ex(row, "time", ns / 1e9, CMDBENCH_UNIT_SECONDS, &m::kElapsed);
    h.row_metric_ex(row, "Gb/sec", bytes * 8.0 / ns, CMDBENCH_UNIT_GBPS, &m::kBandwidth);
    // Shown, not compared: a best moment is no measure of the link.
    h.row_metric_ex(row, "peak Gb/sec", std::max(f.peak_gbps, bytes * 8.0 / ns), CMDBENCH_UNIT_GBPS,
                    &m::kBandwidthDetail);
    h.row_metric_ex(row, "msgs/sec", double(f.msgs) / (ns / 1e9), CMDBENCH_UNIT_PER_SEC, &m::kRate);
    h.row_metric_ex(row, "qps", double(p.qps), CMDBENCH_UNIT_COUNT, &m::kCount);
    if (p.qps > 1 && f.max_qp_gbps > 0) {
        h.row_metric_ex(row, "min QP Gb/sec", f.min_qp_gbps, CMDBENCH_UNIT_GBPS,
                        &m::kBandwidthDetail);
        h.row_metric_ex(row, "max QP Gb/sec", f.max_qp_gbps, CMDBENCH_UNIT_GBPS,
                        &m::kBandwidthDetail);
    }
    return row;
}

} // namespace cmdbench::verbs

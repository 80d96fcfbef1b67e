// verbs-bw's entry and what its runs over RC and UD QPs share (see
// bw_runner.hpp).
#include "bw/bw_runner.hpp"

#include "atomics.hpp"

#include <algorithm>
#include <cstdio>

namespace cmdbench::verbs {

ConnSpec bw_spec(const Params &p, int recv_depth) {
    ConnSpec spec;
    spec.region = p.region();
    spec.send_depth = p.tx_depth;
    spec.recv_depth = recv_depth;
    spec.inline_size = p.inline_size;
    spec.inline_explicit = p.inline_explicit;
    spec.rdma_read = is_one_sided(p.op);
    spec.atomics = is_atomic(p.op);
    spec.type = p.connected_type();
    return spec;
}

void report_bw(Run &run, const Params &p, int64_t size, const std::vector<QpFigures> &figures,
               const std::vector<uint64_t> &sent, const std::vector<uint64_t> *got) {
    static const cmdbench_metric_meaning moved = CMDBENCH_MEANING_MOVED;
    const std::string label = cmdbench::support::size_label(size);
    uint64_t lost = 0, all = 0;
    if (got) {
        for (size_t i = 0; i < sent.size(); ++i) {
            lost += sent[i] > (*got)[i] ? sent[i] - (*got)[i] : 0;
            all += sent[i];
        }
        if (lost > 0)
            run.log(CMDBENCH_LOG_WARN, "verbs-bw " + label + ": " + std::to_string(lost) + " of " +
                                           std::to_string(all) +
                                           (p.qp_type == QpType::Uc ? " UC" : " UD") +
                                           " messages never arrived (a receiver with no "
                                           "receive posted drops them: raise rx_depth)");
    }
    cmdbench_row *row = begin_bw_row(run, p, label, size, sum_qps(size, figures), moved);
    if (got)
        run.host().row_metric_ex(row, "lost", double(lost), CMDBENCH_UNIT_COUNT,
                                 &cmdbench::support::meaning::kCount);
    run.host().row_end(row);
}

void report_bw_window(Run &run, const Params &p, int64_t size, uint64_t window,
                      const std::vector<QpFigures> &figures) {
    static const cmdbench_metric_meaning moved = CMDBENCH_MEANING_MOVED;
    const std::string name = cmdbench::support::size_label(size) + " #" + std::to_string(window);
    const BwFigures f = sum_qps(size, figures);
    run.host().row_end(begin_bw_row(run, p, name, size, f, moved));
    // A line per window, as perftest prints one, for whoever watches the log.
    const double secs = double(std::max<uint64_t>(f.ns(), 1)) / 1e9;
    char line[160];
    std::snprintf(line, sizeof line, "verbs-bw %s: %.3f Gb/sec, %.0f msgs/sec over %.2f s",
                  name.c_str(), double(f.msgs) * double(size) * 8.0 / secs / 1e9,
                  double(f.msgs) / secs, secs);
    run.log(CMDBENCH_LOG_INFO, line);
}

void run_bw(Run &run) {
    const Params p = read_params(run, true);
    if (p.qp_type == QpType::Ud)
        run_ud_bw(run, p);
    else if (p.qp_type == QpType::Uc && p.op == Op::Send)
        run_uc_send_bw(run, p);
    else
        run_rc_bw(run, p);
}

} // namespace cmdbench::verbs

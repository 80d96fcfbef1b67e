// Test "verbs-bw": windowed bandwidth over RC QPs (perftest's ib_send_bw,
// ib_write_bw, ib_read_bw, measured at the sender as with -R). The client
// keeps up to tx_depth work requests outstanding per QP and asks for a
// completion every cq_mod of them (CQ moderation); for send the server keeps
// rx_depth receives posted and counts arrivals until the client tells it how
// many were sent; write, read and the atomics (fetch_add, cmp_swap on an
// 8-byte target) are one-sided (the server stays passive).
// With bidirectional = true both sides do all of that at once
// (verbs_bw_bidir.cpp).
#include "bw/bw_rows.hpp"
#include "bw/bw_window.hpp"
#include "bw/verbs_bw_bidir.hpp"
#include "session.hpp"
#include "workers.hpp"

#include <cmdbench/plugin-support/size_label.hpp>

namespace verbs {
namespace {

void report(Run &run, const Params &p, int64_t size, const std::vector<QpFigures> &figures) {
    static const cmdbench_metric_meaning moved = CMDBENCH_MEANING_MOVED;
    cmdbench_row *row = begin_bw_row(run, p, cmdbench::support::size_label(size), size,
                                     sum_qps(size, figures), moved);
    run.host().row_end(row);
}

// One size, one way: the client sends (or reads), the server receives (send)
// or waits.
void one_way(Run &run, const Params &p, Session &session, int64_t size) {
    const size_t qps = size_t(p.qps);
    std::vector<QpFigures> figures(qps);
    std::vector<uint64_t> sent(qps, 0); // warm-up and timed, per QP
    std::vector<uint64_t> got(qps, 0);
    std::vector<std::atomic<uint64_t>> expected(qps);
    for (auto &e : expected)
        e = kUnknown;
    if (run.is_client()) {
        run_workers(run, p.threads, [&](int thread) {
            auto mine = window_states(qps_of_thread(session.conns(), thread, p.threads));
            send_phases(run, p, mine, sent, figures, [&](uint64_t count, uint64_t until) {
                pump(run, p, size_t(size), mine, count, until);
            });
        });
        run.exchange(encode_counts(sent), "verbs-bw message counts");
    } else if (p.op == Op::Send) {
        run_workers(
            run, p.threads,
            [&](int thread) {
                receive_all(run, p, qps_of_thread(session.conns(), thread, p.threads), expected,
                            got);
            },
            [&] {
                const std::vector<uint64_t> counts =
                    decode_counts(run.exchange({}, "verbs-bw message counts"), qps);
                for (size_t i = 0; i < qps; ++i)
                    expected[i] = counts[i];
            });
    } else {
        run.exchange({}, "verbs-bw message counts");
    }
    run.barrier("bw " + std::to_string(size) + " done");
    if (run.is_client()) report(run, p, size, figures);
}

// Says which window a size runs with: the default cq_mod depends on the size.
void log_window(const Run &run, const Params &p, int64_t size) {
    const BwWindow w =
        bw_window(p.tx_depth, p.cq_mod, size, p.duration > 0 ? 0 : uint64_t(p.iterations));
    run.log(CMDBENCH_LOG_INFO, "verbs-bw " + cmdbench::support::size_label(size) + ": tx_depth " +
                                   std::to_string(w.tx_depth) + ", cq_mod " +
                                   std::to_string(w.cq_mod) +
                                   (w.cq_mod_auto ? " (by message size)" : ""));
}

} // namespace

void run_bw(Run &run) {
    const Params p = read_params(run, true);
    if (p.qp_type == QpType::Ud) return run_ud_bw(run, p);
    ConnSpec spec;
    spec.region = region_for(p);
    spec.send_depth = p.tx_depth;
    spec.recv_depth = p.op == Op::Send ? p.rx_depth : 1;
    spec.inline_size = p.inline_size;
    spec.inline_explicit = p.inline_explicit;
    spec.rdma_read = p.op == Op::Read || is_atomic(p.op);
    spec.atomics = is_atomic(p.op);
    Session session(run, p, spec);
    // Receivers of SEND: the server, and with bidirectional the client too.
    const bool receives = p.op == Op::Send && (!run.is_client() || p.bidirectional);
    if (receives) {
        int found = 0;
        for (const auto &c : session.conns()) {
            for (int i = 0; i < p.rx_depth; ++i)
                c->post_recv(0);
            // One QP that refused is enough for the warning.
            const int was = c->shorten_rnr_wait();
            if (found >= 0) found = was;
        }
        run.log(found < 0 ? CMDBENCH_LOG_WARN : CMDBENCH_LOG_DEBUG,
                found < 0 ? "verbs-bw: the QP keeps its RNR wait (min_rnr_timer not changed)"
                          : "verbs-bw: RNR wait 0.64 ms (was min_rnr_timer " +
                                std::to_string(found) + ")");
    }
    run.barrier("receives posted");

    size_t done = 0;
    for (int64_t size : p.sizes) {
        run.barrier("bw " + std::to_string(size));
        run.check_stop("verbs-bw");
        if (run.is_client()) log_window(run, p, size);
        if (p.bidirectional)
            both_ways(run, p, session, size);
        else
            one_way(run, p, session, size);
        run.host().progress(run.ctx(), ++done, p.sizes.size());
    }
    session.finish(run);
}

} // namespace verbs

// verbs-bw's run, written once for RC and UD QPs: a Kind says what differs,
// chosen once by qp_type (bw_runner.cpp):
//   Kind::QpSet                the QPs of the run (RcQpSet, UdQpSet)
//   Kind::adjust(p)              the kind's own defaults (UD: rx_depth)
//   Kind::recv_depth(p, client)  receives a QP is made for
//   Kind::sizes(p, qp_set)      the sizes the run measures
//   Kind::receives_posted(run, qp_set)  after a receiver posted its receives
//   Kind::window_text(p, qp_set, label, window)  the log line of a size's window
//   Kind::run_both_ways(run, p, qp_set, size)  runs the size both ways and
//                                says true when bidirectional = true (RC only)
//   Kind::kArrivals              the server's arrival counts go back to the
//                                client, whose row says what was `lost` (UD:
//                                a datagram without a receive is dropped); the
//                                name of that exchange, or nullptr
//   Kind::kCounts, kReceiver, kQuietNs  the counts' exchange, the receiver's
//                                name and how long it waits for news (0: all)
// and pump(run, p, size, states, count, until) for its WindowStates (bw_pump.hpp).
#ifndef CMDBENCH_VERBS_BW_RUNNER_HPP
#define CMDBENCH_VERBS_BW_RUNNER_HPP

#include "bw/bw_pump.hpp"
#include "bw/bw_receiver.hpp"
#include "bw/bw_rows.hpp"
#include "qp_notes.hpp"
#include "run/run_settings.hpp"
#include "run/workers.hpp"

#include <algorithm>
#include <atomic>
#include <cmdbench/plugin-support/result_rows.hpp>
#include <cmdbench/plugin-support/size_label.hpp>

namespace cmdbench::verbs {

// The QPs every bandwidth run makes, with `recv_depth` receives each.
ConnSpec bw_spec(const Params &p, int recv_depth);

// The client's row for one size: its figures, and with arrival counts the
// messages lost (logged when any were).
void report_bw(Run &run, const Params &p, int64_t size, const std::vector<QpFigures> &figures,
               const std::vector<uint64_t> &sent, const std::vector<uint64_t> *got);

// run_infinitely's row of window `window` ("64k #3").
void report_bw_window(Run &run, const Params &p, int64_t size, uint64_t window,
                      const std::vector<QpFigures> &figures);

// run_infinitely at the client: timed windows of `duration` on every QP, one
// after the other (warm-up before the first), each reported as it ends, until
// the run is stopped (interrupted, its peer gone, its timeout), which throws.
template <class Kind>
[[noreturn]] void windows_forever(Run &run, const Params &p, typename Kind::QpSet &qp_set,
                                  int64_t size) {
    std::vector<uint64_t> sent(size_t(p.qps), 0);
    Params q = p;
    for (uint64_t window = 1;; ++window) {
        std::vector<QpFigures> figures(size_t(p.qps));
        run_workers(run, p.threads, [&](int thread) {
            auto mine = window_states(qps_of_thread(qp_set.conns(), thread, p.threads));
            send_phases(run, q, size_t(size), mine, sent, figures,
                        [&](uint64_t count, uint64_t until) {
                            pump(run, q, size_t(size), mine, count, until);
                        });
        });
        q.warmup = 0;
        report_bw_window(run, p, size, window, figures);
        run.check_stop("verbs-bw");
    }
}

// One size, one way: the client sends (or reads) on every QP, the server
// receives (send) or waits; then the client reports. With run_infinitely the
// client never ends on its own: the server waits for counts that never come
// until the run stops.
template <class Kind>
void one_way(Run &run, const Params &p, typename Kind::QpSet &qp_set, int64_t size) {
    const size_t qps = size_t(p.qps);
    if (run.is_client() && p.run_infinitely) windows_forever<Kind>(run, p, qp_set, size);
    std::vector<QpFigures> figures(qps);
    std::vector<uint64_t> sent(qps, 0); // warm-up and timed, per QP
    std::vector<uint64_t> got(qps, 0);
    std::vector<std::atomic<uint64_t>> expected(qps);
    for (auto &e : expected)
        e = kUnknown;
    if (run.is_client()) {
        run_workers(run, p.threads, [&](int thread) {
            auto mine = window_states(qps_of_thread(qp_set.conns(), thread, p.threads));
            send_phases(run, p, size_t(size), mine, sent, figures,
                        [&](uint64_t count, uint64_t until) {
                            pump(run, p, size_t(size), mine, count, until);
                        });
        });
        run.exchange(encode_counts(sent), Kind::kCounts);
        if (Kind::kArrivals) got = decode_counts(run.exchange({}, Kind::kArrivals), qps);
    } else if (p.op == Op::Send) {
        run_workers(
            run, p.threads,
            [&](int thread) {
                receive_all(run, p, qps_of_thread(qp_set.conns(), thread, p.threads), expected, got,
                            Kind::kReceiver, Kind::kQuietNs);
            },
            [&] {
                const std::vector<uint64_t> counts =
                    decode_counts(run.exchange({}, Kind::kCounts), qps);
                for (size_t i = 0; i < qps; ++i)
                    expected[i] = counts[i];
            });
        if (Kind::kArrivals) run.exchange(encode_counts(got), Kind::kArrivals);
    } else {
        run.exchange({}, Kind::kCounts);
    }
    run.barrier("bw " + std::to_string(size) + " done");
    if (run.is_client()) report_bw(run, p, size, figures, sent, Kind::kArrivals ? &got : nullptr);
}

// verbs-bw over QPs of one Kind: receives posted where SENDs arrive, then
// each size one way (or, with bidirectional, both ways at once).
template <class Kind> void run_bw_over(Run &run, const Params &p_in) {
    Params p = p_in;
    Kind::adjust(p);
    typename Kind::QpSet qp_set(run, p.link(), bw_spec(p, Kind::recv_depth(p, run.is_client())));
    const std::vector<int64_t> sizes = Kind::sizes(p, qp_set);
    note_qps(run, p, qp_set, "verbs-bw");
    record_qp_settings(run, qp_set.conns(), p.tx_depth, p.op == Op::Send ? p.rx_depth : -1);
    SizedSetting tx_depth("tx_depth"), cq_mod("cq_mod");
    // Receivers of SEND: the server, and with bidirectional the client too.
    if (p.op == Op::Send && (!run.is_client() || p.bidirectional)) {
        for (const auto &c : qp_set.conns())
            for (int i = 0; i < p.rx_depth; ++i)
                c->post_recv(0);
        Kind::receives_posted(run, qp_set);
    }
    run.barrier("receives posted");

    size_t done = 0;
    for (int64_t size : sizes) {
        run.barrier("bw " + std::to_string(size));
        run.check_stop("verbs-bw");
        if (run.is_client()) {
            // The window a size runs with: the default cq_mod depends on the size.
            const BwWindow w =
                bw_window(p.tx_depth, p.cq_mod, size, p.duration > 0 ? 0 : uint64_t(p.iterations));
            const std::string label = cmdbench::support::size_label(size);
            run.log(CMDBENCH_LOG_INFO, Kind::window_text(p, qp_set, label, w));
            tx_depth.record(run, label, int64_t(w.tx_depth));
            cq_mod.record(run, label, int64_t(w.cq_mod));
        }
        if (!Kind::run_both_ways(run, p, qp_set, size)) one_way<Kind>(run, p, qp_set, size);
        run.host().progress(run.ctx(), ++done, sizes.size());
    }
    qp_set.finish(run);
}

// perftest's rule for SEND bandwidth over QPs that drop what finds no
// receive (UD, and here UC) at the default rx_depth: as many receives as
// messages of a size, at most kMaxRxForAll, so none is dropped for want of one.
constexpr int64_t kMaxRxForAll = 16000;
inline void receives_for_every_message(Params &p) {
    if (p.rx_depth == kDefaultRxDepth)
        p.rx_depth =
            int(p.duration > 0 ? kMaxRxForAll : std::min(p.warmup + p.iterations, kMaxRxForAll));
}

// The kinds (verbs_bw.cpp: RC, and UC but its SENDs; ud_bw.cpp).
void run_rc_bw(Run &run, const Params &p);
void run_uc_send_bw(Run &run, const Params &p);
void run_ud_bw(Run &run, const Params &p);

} // namespace cmdbench::verbs

#endif

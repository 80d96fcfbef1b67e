// verbs-bw with qp_type = "ud" (perftest's ib_send_bw -c UD): the client
// sends with the RC window (tx_depth outstanding, a signalled SEND every
// cq_mod) and is measured as RC send is, at the sender; the server keeps
// rx_depth receives posted. A UD SEND completes at the sender whether or not
// the receiver had a receive posted: messages can be dropped. The server
// therefore counts what arrived, stops once it got everything or nothing
// arrived for kQuietNs after the client said how many it sent, and sends its
// counts back; the row's `lost` is the difference.
#include "bw/bw_rows.hpp"
#include "bw/bw_window.hpp"
#include "qp/cq_wait.hpp"
#include "qp/ud_conn.hpp"
#include "workers.hpp"

#include <algorithm>
#include <cmdbench/plugin-support/result_rows.hpp>
#include <cmdbench/plugin-support/size_label.hpp>

namespace verbs {
namespace {

constexpr int kBatch = 32;
constexpr uint64_t kQuietNs = 1'000'000'000;
// perftest's rule for UD SEND bandwidth at its default rx_depth: as many
// receives as messages, at most this many, so nothing is dropped for want of
// a receive.
constexpr int64_t kUdMaxRx = 16000;

using UdSendState = WindowState<UdConn>;

// The RC sender's window over UD QPs: SEND only, and no receive completions
// (the client posts none). A SEND that completed may still be dropped by the
// receiver: the server's counts tell (`lost`).
void pump(Run &run, const Params &p, size_t size, std::vector<UdSendState> &qps, uint64_t count,
          uint64_t until_ns) {
    pump_window(
        run, p, size, qps, count, until_ns, "verbs-bw UD sender", false,
        [&](UdConn &c, uint64_t k, bool signaled) { c.post_send(uint32_t(size), signaled, k); },
        [](UdConn &, const ibv_wc &) { return false; });
}

// Counts arrivals (reposting each receive) until every QP got what the client
// sent, or, once all counts are known, nothing arrived for kQuietNs.
void receive(Run &run, const Params &p, const std::vector<UdConn *> &conns,
             const std::vector<std::atomic<uint64_t>> &expected, std::vector<uint64_t> &got) {
    const cmdbench_host &h = run.host();
    ibv_wc wc[kBatch];
    uint64_t last_news = h.now_ns();
    bool known = false;
    for (unsigned loops = 0;; ++loops) {
        bool progress = false, all_done = true, all_known = true;
        for (UdConn *c : conns) {
            const size_t i = c->index();
            const uint64_t want = expected[i].load();
            if (got[i] < want) {
                const int n = poll_cq(*c, wc, kBatch, "verbs-bw UD receiver");
                for (int j = 0; j < n; ++j) {
                    if (!(wc[j].opcode & IBV_WC_RECV)) continue;
                    ++got[i];
                    c->post_recv(0);
                }
                progress = progress || n > 0;
            }
            all_done = all_done && got[i] >= want;
            all_known = all_known && want != kUnknown;
        }
        if (all_done) return;
        if (progress || (all_known && !known)) last_news = h.now_ns();
        known = all_known;
        if (known && h.now_ns() - last_news > kQuietNs) return; // the rest was dropped
        if ((loops & 0xfff) == 0xfff) run.stopper().check("verbs-bw UD receiver");
        if (!progress && p.mode == WaitMode::Event)
            wait_for_event(conns, run.stopper(), "verbs-bw UD receiver");
    }
}

void one_size(Run &run, const Params &p, UdSession &session, int64_t size) {
    const size_t qps = size_t(p.qps);
    std::vector<QpFigures> figures(qps);
    std::vector<uint64_t> sent(qps, 0), got(qps, 0);
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
        run.exchange(encode_counts(sent), "verbs-bw UD message counts");
        got = decode_counts(run.exchange({}, "verbs-bw UD arrivals"), qps);
    } else {
        run_workers(
            run, p.threads,
            [&](int thread) {
                receive(run, p, qps_of_thread(session.conns(), thread, p.threads), expected, got);
            },
            [&] {
                const std::vector<uint64_t> counts =
                    decode_counts(run.exchange({}, "verbs-bw UD message counts"), qps);
                for (size_t i = 0; i < qps; ++i)
                    expected[i] = counts[i];
            });
        run.exchange(encode_counts(got), "verbs-bw UD arrivals");
    }
    run.barrier("bw " + std::to_string(size) + " done");
    if (!run.is_client()) return;
    uint64_t lost = 0, all = 0;
    for (size_t i = 0; i < qps; ++i) {
        lost += sent[i] > got[i] ? sent[i] - got[i] : 0;
        all += sent[i];
    }
    const std::string label = cmdbench::support::size_label(size);
    if (lost > 0)
        run.log(CMDBENCH_LOG_WARN, "verbs-bw " + label + ": " + std::to_string(lost) + " of " +
                                       std::to_string(all) +
                                       " UD messages never arrived (a receiver with no receive "
                                       "posted drops them: raise rx_depth)");
    static const cmdbench_metric_meaning moved = CMDBENCH_MEANING_MOVED;
    cmdbench_row *row = begin_bw_row(run, p, label, size, sum_qps(size, figures), moved);
    run.host().row_metric_ex(row, "lost", double(lost), CMDBENCH_UNIT_COUNT,
                             &cmdbench::support::meaning::kCount);
    run.host().row_end(row);
}

} // namespace

void run_ud_bw(Run &run, const Params &p_in) {
    Params p = p_in;
    if (p.rx_depth == kDefaultRxDepth)
        p.rx_depth = int(p.duration > 0 ? kUdMaxRx : std::min(p.warmup + p.iterations, kUdMaxRx));
    UdSpec spec;
    spec.region = (std::max<size_t>(size_t(p.largest_size()), 64) + 63) / 64 * 64;
    spec.send_depth = p.tx_depth;
    spec.recv_depth = run.is_client() ? 1 : p.rx_depth;
    spec.inline_size = p.inline_size;
    spec.inline_explicit = p.inline_explicit;
    UdSession session(run, p, spec);
    const std::vector<int64_t> sizes = ud_sizes(p, session.mtu(), "verbs-bw");
    if (!run.is_client())
        for (const auto &c : session.conns())
            for (int i = 0; i < p.rx_depth; ++i)
                c->post_recv(0);
    run.barrier("receives posted");

    size_t done = 0;
    for (int64_t size : sizes) {
        run.barrier("bw " + std::to_string(size));
        run.check_stop("verbs-bw");
        if (run.is_client()) {
            const BwWindow w =
                bw_window(p.tx_depth, p.cq_mod, size, p.duration > 0 ? 0 : uint64_t(p.iterations));
            run.log(CMDBENCH_LOG_INFO, "verbs-bw " + cmdbench::support::size_label(size) +
                                           " (UD, MTU " + std::to_string(session.mtu()) +
                                           "): tx_depth " + std::to_string(w.tx_depth) +
                                           ", cq_mod " + std::to_string(w.cq_mod) + ", rx_depth " +
                                           std::to_string(p.rx_depth));
        }
        one_size(run, p, session, size);
        run.host().progress(run.ctx(), ++done, sizes.size());
    }
    session.finish(run);
}

} // namespace verbs

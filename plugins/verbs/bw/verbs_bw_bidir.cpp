// verbs-bw, bidirectional (see verbs_bw_bidir.hpp). Both sides run the
// windowed sender on every QP at once, as perftest -b does; for send each
// side's sender threads also repost the peer's receives as they complete
// (one CQ per QP carries both), and once a side's senders are done its
// main thread swaps message counts with the peer so that each receiver
// knows when it got everything. For read both sides READ each other's
// buffer at once. Each direction is measured at its sender (an RDMA WRITE or
// READ leaves its target nothing to time), first post to last completion
// (RC: the peer acknowledged every byte); the client puts the server's window
// on its own clock (bidir::measure_peer_clock). Directions are named by where
// the data goes: for read, "c2s" is the server reading the client's buffer.
#include "bw/verbs_bw_bidir.hpp"

#include "bw/bw_receiver.hpp"
#include "bw/bw_rows.hpp"
#include "run/workers.hpp"

#include <chrono>
#include <cmdbench/bidir/bidir_rows.hpp>
#include <cmdbench/bidir/peer_clock.hpp>
#include <cmdbench/plugin-support/size_label.hpp>
#include <condition_variable>
#include <mutex>

namespace cmdbench::verbs {
namespace {

// This side's senders that are done, and the main thread's wait for them.
// The main thread sleeps until the last one says so, looking for a cancel
// and the deadline every 100 ms: a wake-up every millisecond took a CPU
// from the busy-polling senders (and the device's kernel work) on a
// 2-CPU host, which both directions' rates paid.
class SendersDone {
  public:
    void one_more() {
        std::lock_guard<std::mutex> lock(mu_);
        ++done_;
        changed_.notify_all();
    }
    void wait_for(Run &run, int threads) {
        Stopper &stop = run.stopper();
        std::unique_lock<std::mutex> lock(mu_);
        while (!changed_.wait_for(lock, std::chrono::milliseconds(100),
                                  [&] { return done_ >= threads; })) {
            lock.unlock();
            if (run.host().cancelled(run.ctx())) stop.abort();
            stop.check("verbs-bw waiting for this side's senders");
            lock.lock();
        }
    }

  private:
    std::mutex mu_;
    std::condition_variable changed_;
    int done_ = 0;
};

// This side's sending (reading) on every QP, the peer's SENDs received.
BwFigures send_and_receive(Run &run, const Params &p, RcQpSet &qp_set, int64_t size) {
    const size_t qps = size_t(p.qps);
    std::vector<QpFigures> figures(qps);
    std::vector<uint64_t> sent(qps, 0); // warm-up and timed, per QP
    std::vector<uint64_t> got(qps, 0);  // the peer's SENDs, per QP
    std::vector<std::atomic<uint64_t>> expected(qps);
    for (auto &e : expected)
        e = kUnknown;
    std::vector<uint64_t> *receiving = p.op == Op::Send ? &got : nullptr;
    SendersDone senders_done;
    run_workers(
        run, p.threads,
        [&](int thread) {
            const std::vector<Conn *> conns = qps_of_thread(qp_set.conns(), thread, p.threads);
            std::vector<SendState> mine = window_states(conns);
            send_phases(run, p, size_t(size), mine, sent, figures,
                        [&](uint64_t count, uint64_t until) {
                            pump(run, p, size_t(size), mine, count, until, receiving);
                        });
            senders_done.one_more();
            if (receiving) receive_all(run, p, conns, expected, got, "verbs-bw receiver");
        },
        [&] {
            senders_done.wait_for(run, p.threads);
            const std::vector<uint64_t> counts =
                decode_counts(run.exchange(encode_counts(sent), "verbs-bw message counts"), qps);
            for (size_t i = 0; i < qps; ++i)
                expected[i] = counts[i];
        });
    return sum_qps(size, figures);
}

void report_rows(Run &run, const Params &p, int64_t size, const BwFigures &c2s,
                 const BwFigures &s2c, const bidir::PeerClock &clock) {
    static const cmdbench_metric_meaning moved = CMDBENCH_MEANING_MOVED;
    bidir::Timeline t;
    t.c2s = {c2s.start_ns, c2s.end_ns};
    t.s2c = {s2c.start_ns, s2c.end_ns};
    const cmdbench_host &h = run.host();
    const std::string label = cmdbench::support::size_label(size);
    for (const auto d : {bidir::Direction::ClientToServer, bidir::Direction::ServerToClient}) {
        const BwFigures &f = d == bidir::Direction::ClientToServer ? c2s : s2c;
        cmdbench_row *row = begin_bw_row(run, p, bidir::row_name(label, d), size, f, moved);
        bidir::put_span(h, row, t, d);
        h.row_end(row);
    }
    // Both directions' messages over the union of their windows.
    BwFigures sum;
    sum.msgs = c2s.msgs + s2c.msgs;
    sum.start_ns = t.origin_ns();
    sum.end_ns = t.origin_ns() + t.union_ns();
    sum.peak_gbps = c2s.peak_gbps + s2c.peak_gbps;
    cmdbench_row *row = begin_bw_row(run, p, bidir::row_name(label, bidir::Direction::Both), size,
                                     sum, bidir::kSumBytes);
    bidir::put_overlap(h, row, t, clock);
    h.row_end(row);
}

} // namespace

void both_ways(Run &run, const Params &p, RcQpSet &qp_set, int64_t size) {
    const BwFigures mine = send_and_receive(run, p, qp_set, size);
    run.barrier("bw " + std::to_string(size) + " done");
    BwFigures peer = decode_figures(run.exchange(encode_figures(mine), "verbs-bw figures"));
    const bidir::Exchange exchange = [&run](const std::vector<uint8_t> &out) {
        return run.exchange(out, "verbs-bw clock exchange");
    };
    const bidir::PeerClock clock =
        bidir::measure_peer_clock(exchange, run.host().now_ns, run.is_client());
    if (!run.is_client()) return;
    peer.start_ns = clock.to_client(peer.start_ns);
    peer.end_ns = clock.to_client(peer.end_ns);
    // The client's messages carry data to the server, except READs, which
    // fetch it from there.
    const bool client_is_c2s = p.op != Op::Read;
    report_rows(run, p, size, client_is_c2s ? mine : peer, client_is_c2s ? peer : mine, clock);
}

} // namespace cmdbench::verbs

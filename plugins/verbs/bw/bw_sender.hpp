// verbs-bw's windowed sender, one loop for RC (bw_pump.cpp) and UD (ud_bw.cpp)
// QPs alike: per QP up to tx_depth requests outstanding, one signalled every
// cq_mod (and the last), completions reaped as they come, the deadline
// checked; then the warm-up and timed phases around it. What differs is the
// caller's: how a request is posted, and what a completion that is not a
// send's means (RC bidirectional send: the peer's SEND arrived).
#ifndef CMDBENCH_VERBS_BW_SENDER_HPP
#define CMDBENCH_VERBS_BW_SENDER_HPP

#include "bw/bw_window.hpp"
#include "qp/cq_wait.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace cmdbench::verbs {

constexpr uint64_t kUnknown = std::numeric_limits<uint64_t>::max();
// The bytes a sender posts between two looks at the run's stop.
constexpr uint64_t kCheckBytes = uint64_t(8) << 20;

// One QP's timed messages, first post to last completion.
struct QpFigures {
    uint64_t msgs = 0;
    uint64_t start_ns = 0, end_ns = 0;
};

// One QP at the sender, for one phase (warm-up or timed).
template <class QP> struct WindowState {
    QP *conn;
    uint64_t posted = 0, completed = 0, target = 0;
    uint64_t end_ns = 0;
};

template <class QP> std::vector<WindowState<QP>> window_states(const std::vector<QP *> &conns) {
    std::vector<WindowState<QP>> out;
    for (QP *c : conns)
        out.push_back({c});
    return out;
}

// Posts and reaps on every QP of `qps` until each reached its target
// (`count`); with `until_ns` the targets close (rounded up to a signalled
// request) once it passed. post(qp, k, signaled) posts request k (wr_id k);
// take_recv(qp, wc) handles a completion that is a receive and says whether
// it was one. With `poll_idle` a QP is polled even with nothing of ours in
// flight (a side that receives SENDs too must repost their receives).
template <class QP, class Post, class TakeRecv>
void pump_window(Run &run, const Params &p, size_t size, std::vector<WindowState<QP>> &qps,
                 uint64_t count, uint64_t until_ns, const char *what, bool poll_idle, Post post,
                 TakeRecv take_recv) {
    constexpr int kBatch = 32;
    const cmdbench_host &h = run.host();
    const Stopper &stop = run.stopper();
    const BwWindow window = bw_window(p.tx_depth, p.cq_mod, int64_t(size), until_ns ? 0 : count);
    const uint64_t cq_mod = window.cq_mod, depth = window.tx_depth;
    std::vector<QP *> conns;
    for (WindowState<QP> &s : qps) {
        s.posted = s.completed = 0;
        s.target = until_ns ? kUnknown : count;
        conns.push_back(s.conn);
    }
    bool closing = until_ns == 0;
    ibv_wc wc[kBatch];
    uint64_t unchecked_bytes = 0; // posted since the last stop check
    for (unsigned loops = 0;; ++loops) {
        if (!closing && h.now_ns() >= until_ns) {
            closing = true;
            // A window drained to a signalled request at this instant is
            // already complete: no completion will come to end it.
            for (WindowState<QP> &s : qps) {
                s.target = (s.posted + cq_mod - 1) / cq_mod * cq_mod;
                if (s.completed == s.target) s.end_ns = h.now_ns();
            }
        }
        bool progress = false, all_done = true;
        for (WindowState<QP> &s : qps) {
            while (s.posted < s.target && s.posted - s.completed < depth) {
                const uint64_t k = s.posted + 1;
                post(*s.conn, k, k % cq_mod == 0 || k == s.target);
                s.posted = k;
                progress = true;
                // A post can be slow (under Soft-RoCE it moves the message
                // inside the call): a cancel is looked at every 8 MiB too.
                if ((unchecked_bytes += size) >= kCheckBytes) {
                    unchecked_bytes = 0;
                    stop.check(what);
                }
            }
            if (s.completed < s.posted || poll_idle) {
                const int n = poll_cq(*s.conn, wc, kBatch, what);
                const uint64_t before = s.completed;
                for (int i = 0; i < n; ++i)
                    if (!take_recv(*s.conn, wc[i]))
                        s.completed = std::max<uint64_t>(s.completed, wc[i].wr_id);
                if (s.completed != before && s.completed == s.target) s.end_ns = h.now_ns();
                progress = progress || n > 0;
            }
            all_done = all_done && s.completed == s.target;
        }
        if (all_done) return;
        if ((loops & 0xfff) == 0xfff) stop.check(what);
        if (!progress && p.mode == WaitMode::Event) wait_for_event(conns, stop, what);
    }
}

// The warm-up phase, its messages only counted into `sent`, then the timed
// one, counted into `sent` and `figures` (by QP index): each is
// pump(count, until_ns) over `mine`.
template <class QP, class Pump>
void send_phases(Run &run, const Params &p, std::vector<WindowState<QP>> &mine,
                 std::vector<uint64_t> &sent, std::vector<QpFigures> &figures, Pump pump) {
    if (p.warmup > 0) {
        pump(uint64_t(p.warmup), uint64_t(0));
        for (WindowState<QP> &s : mine)
            sent[s.conn->index()] += s.completed;
    }
    const uint64_t start = run.host().now_ns();
    const uint64_t until = p.duration > 0 ? start + uint64_t(p.duration * 1e9) : uint64_t(0);
    pump(uint64_t(p.iterations), until);
    for (WindowState<QP> &s : mine) {
        const size_t i = s.conn->index();
        sent[i] += s.completed;
        figures[i] = {s.completed, start, s.end_ns};
    }
}

} // namespace cmdbench::verbs

#endif

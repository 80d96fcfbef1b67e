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

// One QP's timed messages, first post to last completion, and its peak:
// the best rate over a span of at least a window's messages (Gb/s).
struct QpFigures {
    uint64_t msgs = 0;
    uint64_t start_ns = 0, end_ns = 0;
    double peak_gbps = 0;
};

// One QP at the sender, for one phase (warm-up or timed). The peak's span
// starts at mark_ns with mark messages completed.
template <class QP> struct WindowState {
    QP *conn;
    uint64_t posted = 0, completed = 0, target = 0;
    uint64_t end_ns = 0;
    uint64_t mark_ns = 0, mark = 0;
    double peak_gbps = 0;
};

// After `s` completed more: once a window's worth (`depth`) completed since
// the span began, the span's rate may be the peak, and a new span begins.
// One clock read per window, from completions the sender reaps anyway.
template <class QP>
void note_peak(WindowState<QP> &s, uint64_t depth, size_t size, uint64_t now_ns) {
    if (s.completed - s.mark < depth || now_ns <= s.mark_ns) return;
    const double gbps =
        double(s.completed - s.mark) * double(size) * 8.0 / double(now_ns - s.mark_ns);
    s.peak_gbps = std::max(s.peak_gbps, gbps);
    s.mark_ns = now_ns;
    s.mark = s.completed;
}

// Posts what the window has room for on `s`, `list` requests per post
// (perftest's post list): a chain ends where the window, the target or a
// signalled request (every cq_mod-th, and the target) cuts it, so a signalled
// request is always the last of its chain. post(qp, k, signaled, n) posts
// requests k-n+1 .. k. A post can be slow (under Soft-RoCE it moves the
// message inside the call): a cancel is looked at every kCheckBytes posted,
// counted in `unchecked`. Says whether it posted anything.
template <class QP, class Post>
bool post_window(WindowState<QP> &s, uint64_t depth, uint64_t cq_mod, uint64_t list, size_t size,
                 Post &post, uint64_t &unchecked, const Stopper &stop, const char *what) {
    const uint64_t before = s.posted;
    while (s.posted < s.target && s.posted - s.completed < depth) {
        const uint64_t next_signal = (s.posted / cq_mod + 1) * cq_mod;
        const uint64_t n = std::min(
            {list, s.target - s.posted, depth - (s.posted - s.completed), next_signal - s.posted});
        const uint64_t k = s.posted + n;
        post(*s.conn, k, k % cq_mod == 0 || k == s.target, n);
        s.posted = k;
        if ((unchecked += n * size) >= kCheckBytes) {
            unchecked = 0;
            stop.check(what);
        }
    }
    return s.posted != before;
}

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
    const uint64_t list = uint64_t(std::max(p.post_list, 1));
    std::vector<QP *> conns;
    for (WindowState<QP> &s : qps) {
        s.posted = s.completed = s.mark = 0;
        s.peak_gbps = 0;
        s.mark_ns = h.now_ns();
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
            if (post_window(s, depth, cq_mod, list, size, post, unchecked_bytes, stop, what))
                progress = true;
            if (s.completed < s.posted || poll_idle) {
                const int n = poll_cq(*s.conn, wc, kBatch, what);
                const uint64_t before = s.completed;
                for (int i = 0; i < n; ++i)
                    if (!take_recv(*s.conn, wc[i]))
                        s.completed = std::max<uint64_t>(s.completed, wc[i].wr_id);
                if (s.completed != before) {
                    const uint64_t now =
                        s.completed == s.target || s.completed - s.mark >= depth ? h.now_ns() : 0;
                    if (s.completed == s.target) s.end_ns = now;
                    note_peak(s, depth, size, now);
                }
                progress = progress || n > 0;
            }
            all_done = all_done && s.completed == s.target;
        }
        if (all_done) return;
        if ((loops & 0xfff) == 0xfff) stop.check(what);
        if (!progress && p.mode == WaitMode::Event) wait_for_event(conns, stop, what);
    }
}

// One timed phase of `size`-byte messages: pump(count, until_ns) over
// `mine`, counted into `sent` and `figures` (by QP index).
template <class QP, class Pump>
void timed_phase(Run &run, const Params &p, size_t size, std::vector<WindowState<QP>> &mine,
                 std::vector<uint64_t> &sent, std::vector<QpFigures> &figures, Pump pump) {
    const uint64_t start = run.host().now_ns();
    const uint64_t until = p.duration > 0 ? start + uint64_t(p.duration * 1e9) : uint64_t(0);
    pump(uint64_t(p.iterations), until);
    for (WindowState<QP> &s : mine) {
        const size_t i = s.conn->index();
        sent[i] += s.completed;
        // The peak is at least the QP's average (a phase shorter than two
        // windows has one span or none).
        const double ns = double(std::max<uint64_t>(s.end_ns - start, 1));
        const double average = double(s.completed) * double(size) * 8.0 / ns;
        figures[i] = {s.completed, start, s.end_ns, std::max(s.peak_gbps, average)};
    }
}

// The warm-up phase, its messages only counted into `sent`, then the timed
// one (timed_phase): each is pump(count, until_ns) over `mine`.
template <class QP, class Pump>
void send_phases(Run &run, const Params &p, size_t size, std::vector<WindowState<QP>> &mine,
                 std::vector<uint64_t> &sent, std::vector<QpFigures> &figures, Pump pump) {
    if (p.warmup > 0) {
        pump(uint64_t(p.warmup), uint64_t(0));
        for (WindowState<QP> &s : mine)
            sent[s.conn->index()] += s.completed;
    }
    timed_phase(run, p, size, mine, sent, figures, pump);
}

} // namespace cmdbench::verbs

#endif

// Completions of one thread's QPs, busy-polled or waited for through the
// completion channels (ibv_req_notify_cq, then poll() on the channel fds),
// every wait bounded by the run's deadline. For RC (Conn) and UD (UdConn)
// QPs alike: anything with cq(), channel(), index() and an `armed` flag.
#ifndef CMDBENCH_VERBS_CQ_WAIT_HPP
#define CMDBENCH_VERBS_CQ_WAIT_HPP

#include "qp/conn.hpp"
#include "qp/wait_mode.hpp"

#include <vector>

namespace cmdbench::verbs {

// poll_cq's failures: ibv_poll_cq itself, or a completion in error.
[[noreturn]] void fail_poll(const char *what);
[[noreturn]] void fail_completion(const ibv_wc &wc, uint32_t qp, const char *what);

// Non-blocking: up to `max` completions of `cq` (QP number `qp`, for the
// message) into wc; a completion in error fails the run (naming its status
// and opcode). Inline: the latency loops poll once per round trip or more,
// and a call costs time there (most under emulation).
inline int poll_cq(ibv_cq *cq, uint32_t qp, ibv_wc *wc, int max, const char *what) {
    const int n = ibv_poll_cq(cq, max, wc);
    if (n < 0) fail_poll(what);
    for (int i = 0; i < n; ++i)
        if (wc[i].status != IBV_WC_SUCCESS) fail_completion(wc[i], qp, what);
    return n;
}

template <class QP> int poll_cq(QP &conn, ibv_wc *wc, int max, const char *what) {
    return poll_cq(conn.cq(), conn.index(), wc, max, what);
}

// Arms `cq` unless `armed`; true when it armed it now.
bool arm_cq(ibv_cq *cq, bool &armed, const char *what);

// Sleeps until one of `channels` fires (at most 100 ms, and the deadline),
// consumes the events; fired[i] tells which did.
void sleep_on_channels(const std::vector<ibv_comp_channel *> &channels, std::vector<char> &fired,
                       const Stopper &stop, const char *what);

// Event mode, when none of `qps` had a completion: arms the CQs not yet
// armed and returns at once (the caller polls again: nothing is lost), or,
// all armed, sleeps until a completion channel fires (at most 100 ms) and
// consumes its events. Checks the deadline.
template <class QP>
void wait_for_event(QP *const *qps, size_t count, const Stopper &stop, const char *what) {
    bool newly_armed = false;
    for (size_t i = 0; i < count; ++i)
        newly_armed = arm_cq(qps[i]->cq(), qps[i]->armed, what) || newly_armed;
    if (newly_armed) return;
    // Reused: in event mode this runs once per message, and an allocation
    // each time shows in latency.
    thread_local std::vector<ibv_comp_channel *> channels;
    thread_local std::vector<char> fired;
    channels.clear();
    for (size_t i = 0; i < count; ++i)
        channels.push_back(qps[i]->channel());
    sleep_on_channels(channels, fired, stop, what);
    for (size_t i = 0; i < count; ++i)
        if (fired[i]) qps[i]->armed = false;
}

template <class QP>
void wait_for_event(const std::vector<QP *> &qps, const Stopper &stop, const char *what) {
    wait_for_event(qps.data(), qps.size(), stop, what);
}

// Blocks (busy poll or event wait per `mode`) until `conn` has completions,
// then returns them as poll_cq does.
template <class QP>
int wait_cq_loop(QP &conn, WaitMode mode, ibv_wc *wc, int max, const Stopper &stop,
                 const char *what) {
    QP *const one[] = {&conn}; // no allocation: this runs once per message
    for (unsigned spins = 0;; ++spins) {
        const int n = poll_cq(conn, wc, max, what);
        if (n > 0) return n;
        if (mode == WaitMode::Event)
            wait_for_event(one, 1, stop, what);
        else if ((spins & 0xfff) == 0xfff)
            stop.check(what);
    }
}

// The first poll is inline, without a call: often the completion is there
// already (on rxe an atomic completes inside its post).
template <class QP>
inline int wait_cq(QP &conn, WaitMode mode, ibv_wc *wc, int max, const Stopper &stop,
                   const char *what) {
    const int n = poll_cq(conn, wc, max, what);
    return n > 0 ? n : wait_cq_loop(conn, mode, wc, max, stop, what);
}

} // namespace cmdbench::verbs

#endif

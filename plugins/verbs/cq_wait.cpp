// CQ polling and completion-channel waits (see cq_wait.hpp).
#include "cq_wait.hpp"

#include <algorithm>
#include <cerrno>
#include <poll.h>

namespace verbs {

int poll_cq(Conn &conn, ibv_wc *wc, int max, const char *what) {
    const int n = ibv_poll_cq(conn.cq(), max, wc);
    if (n < 0) fail(std::string(what) + ": ibv_poll_cq failed");
    for (int i = 0; i < n; ++i)
        if (wc[i].status != IBV_WC_SUCCESS)
            fail(std::string(what) + ": QP " + std::to_string(conn.index()) + ": work completion " +
                 ibv_wc_status_str(wc[i].status) + " (opcode " + std::to_string(wc[i].opcode) +
                 ", vendor error " + std::to_string(wc[i].vendor_err) + ")");
    return n;
}

int wait_cq(Conn &conn, WaitMode mode, ibv_wc *wc, int max, const Stopper &stop, const char *what) {
    Conn *const one[] = {&conn}; // no allocation: this runs once per message
    for (unsigned spins = 0;; ++spins) {
        const int n = poll_cq(conn, wc, max, what);
        if (n > 0) return n;
        if (mode == WaitMode::Event)
            wait_for_event(one, 1, stop, what);
        else if ((spins & 0xfff) == 0xfff)
            stop.check(what);
    }
}

void wait_for_event(const std::vector<Conn *> &conns, const Stopper &stop, const char *what) {
    wait_for_event(conns.data(), conns.size(), stop, what);
}

void wait_for_event(Conn *const *conns, size_t count, const Stopper &stop, const char *what) {
    bool newly_armed = false;
    for (size_t i = 0; i < count; ++i) {
        Conn *c = conns[i];
        if (c->armed) continue;
        const int rc = ibv_req_notify_cq(c->cq(), 0);
        if (rc != 0) fail_errno(std::string(what) + ": ibv_req_notify_cq", rc);
        c->armed = true;
        newly_armed = true;
    }
    if (newly_armed) return;
    stop.check(what);
    // Reused: in event mode this runs once per message, and an allocation
    // each time shows in latency.
    thread_local std::vector<pollfd> fds;
    fds.clear();
    for (size_t i = 0; i < count; ++i)
        fds.push_back({conns[i]->channel()->fd, POLLIN, 0});
    const int64_t slice = std::min<int64_t>(stop.remaining_ms(), 100);
    const int ready = poll(fds.data(), nfds_t(fds.size()), int(slice));
    if (ready < 0 && errno != EINTR) fail_errno(std::string(what) + ": poll", errno);
    if (ready <= 0) return;
    for (size_t i = 0; i < fds.size(); ++i) {
        if (!(fds[i].revents & POLLIN)) continue;
        ibv_cq *cq = nullptr;
        void *context = nullptr;
        if (ibv_get_cq_event(conns[i]->channel(), &cq, &context) != 0) {
            if (errno == EAGAIN) continue;
            fail_errno(std::string(what) + ": ibv_get_cq_event", errno);
        }
        ibv_ack_cq_events(cq, 1);
        conns[i]->armed = false;
    }
}

} // namespace verbs

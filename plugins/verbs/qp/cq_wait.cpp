// CQ polling and completion-channel waits (see cq_wait.hpp).
#include "qp/cq_wait.hpp"

#include <algorithm>
#include <cerrno>
#include <poll.h>

namespace cmdbench::verbs {

void fail_poll(const char *what) {
    fail(std::string(what) + ": ibv_poll_cq failed");
}

void fail_completion(const ibv_wc &wc, uint32_t qp, const char *what) {
    fail(std::string(what) + ": QP " + std::to_string(qp) + ": work completion " +
         ibv_wc_status_str(wc.status) + " (opcode " + std::to_string(wc.opcode) +
         ", vendor error " + std::to_string(wc.vendor_err) + ")");
}

bool arm_cq(ibv_cq *cq, bool &armed, const char *what) {
    if (armed) return false;
    const int rc = ibv_req_notify_cq(cq, 0);
    if (rc != 0) fail_errno(std::string(what) + ": ibv_req_notify_cq", rc);
    armed = true;
    return true;
}

void sleep_on_channels(const std::vector<ibv_comp_channel *> &channels, std::vector<char> &fired,
                       const Stopper &stop, const char *what) {
    stop.check(what);
    thread_local std::vector<pollfd> fds;
    fds.clear();
    for (ibv_comp_channel *ch : channels)
        fds.push_back({ch->fd, POLLIN, 0});
    fired.assign(channels.size(), 0);
    const int64_t slice = std::min<int64_t>(stop.remaining_ms(), 100);
    const int ready = poll(fds.data(), nfds_t(fds.size()), int(slice));
    if (ready < 0 && errno != EINTR) fail_errno(std::string(what) + ": poll", errno);
    if (ready <= 0) return;
    for (size_t i = 0; i < fds.size(); ++i) {
        if (!(fds[i].revents & POLLIN)) continue;
        ibv_cq *cq = nullptr;
        void *context = nullptr;
        if (ibv_get_cq_event(channels[i], &cq, &context) != 0) {
            if (errno == EAGAIN) continue;
            fail_errno(std::string(what) + ": ibv_get_cq_event", errno);
        }
        ibv_ack_cq_events(cq, 1);
        fired[i] = 1;
    }
}

} // namespace cmdbench::verbs

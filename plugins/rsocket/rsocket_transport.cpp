// Transport "rsocket": librdmacm's rsocket calls behind the cmdbench
// transport table, with rdma-core 44's quirks handled here: no SOCK_NONBLOCK/SOCK_CLOEXEC in
// rsocket(), and rpoll with finite timeouts replaced by zero-timeout checks in a bounded loop.
#include "rsocket_transport.hpp"

#include <algorithm>
#include <cerrno>
#include <cmdbench/rdma-util/rdma_device.hpp>
#include <ctime>
#include <fcntl.h>
#include <rdma/rsocket.h>

namespace cmdbench::rsocket_plugin {
namespace {

int rs_probe(cmdbench_ctx *ctx, const cmdbench_host *host) {
    if (cmdbench::rdma::rdma_device_problem().empty()) return CMDBENCH_OK;
    host->set_error(ctx, "no RDMA device: ibv_get_device_list found none; run it in the RDMA "
                         "lab: tools/rdma-lab -- <your command>");
    return CMDBENCH_ERR_SKIP;
}

// v44's rsocket() refuses type flags: create plain, then set O_NONBLOCK.
int rs_socket(int domain, int type, int protocol) {
    const int flags = type & (SOCK_NONBLOCK | SOCK_CLOEXEC);
    int sock = rsocket(domain, type & ~flags, protocol);
    if (sock < 0 || !(flags & SOCK_NONBLOCK)) return sock;
    if (rfcntl(sock, F_SETFL, rfcntl(sock, F_GETFL, 0) | O_NONBLOCK) < 0) {
        int err = errno;
        rclose(sock);
        errno = err;
        return -1;
    }
    return sock;
}

int rs_bind(int sock, const sockaddr *addr, socklen_t len) {
    return rbind(sock, addr, len);
}

int rs_listen(int sock, int backlog) {
    return rlisten(sock, backlog);
}

int rs_accept(int sock, sockaddr *addr, socklen_t *len) {
    return raccept(sock, addr, len);
}

int rs_connect(int sock, const sockaddr *addr, socklen_t len) {
    return rconnect(sock, addr, len);
}

ssize_t rs_send(int sock, const void *buf, size_t len, int flags) {
    return rsend(sock, buf, len, flags);
}

ssize_t rs_recv(int sock, void *buf, size_t len, int flags) {
    return rrecv(sock, buf, len, flags);
}

uint64_t now_us() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return uint64_t(ts.tv_sec) * 1000000u + uint64_t(ts.tv_nsec) / 1000u;
}

// rpoll with a finite timeout misbehaves on v44 (a timed-out call skips a
// clean-up step; wake-ups can come 5 s late), so only zero-timeout rpoll is
// used: spin briefly for latency, then back off in short sleeps up to 1 ms,
// which keeps every wait within ~1 ms of its timeout.
int rs_poll(pollfd *fds, nfds_t nfds, int timeout_ms) {
    constexpr uint64_t kSpinUs = 200;
    constexpr long kMaxSleepNs = 1000000;
    const uint64_t start = now_us();
    long sleep_ns = 10000;
    for (;;) {
        int n = rpoll(fds, nfds, 0);
        if (n != 0 || timeout_ms == 0) return n;
        const uint64_t waited = now_us() - start;
        if (timeout_ms > 0 && waited >= uint64_t(timeout_ms) * 1000u) return 0;
        if (waited < kSpinUs) continue;
        timespec pause{0, sleep_ns};
        nanosleep(&pause, nullptr);
        sleep_ns = std::min(sleep_ns * 2, kMaxSleepNs);
    }
}

int rs_setsockopt(int sock, int level, int name, const void *val, socklen_t len) {
    return rsetsockopt(sock, level, name, val, len);
}

int rs_getsockopt(int sock, int level, int name, void *val, socklen_t *len) {
    return rgetsockopt(sock, level, name, val, len);
}

int rs_fcntl(int sock, int cmd, int arg) {
    if (cmd == F_GETFL) return rfcntl(sock, F_GETFL);
    if (cmd == F_SETFL) return rfcntl(sock, F_SETFL, arg);
    errno = EINVAL;
    return -1;
}

int rs_getsockname(int sock, sockaddr *addr, socklen_t *len) {
    return rgetsockname(sock, addr, len);
}

int rs_shutdown(int sock, int how) {
    return rshutdown(sock, how);
}

int rs_close(int sock) {
    return rclose(sock);
}

const cmdbench_transport transport = {
    sizeof(cmdbench_transport),
    "rsocket",
    "RDMA stream sockets (librdmacm rsockets, rstream's default path)",
    CMDBENCH_TRANSPORT_NEEDS_RDMA,
    transport_params().size(),
    transport_params().table(),
    rs_probe,
    configure,
    resolve,
    rs_socket,
    rs_bind,
    rs_listen,
    rs_accept,
    rs_connect,
    rs_send,
    rs_recv,
    rs_poll,
    rs_setsockopt,
    rs_getsockopt,
    rs_fcntl,
    rs_getsockname,
    rs_shutdown,
    rs_close,
    local_node,
    nullptr, // sock_ops (ABI 1.2): rsockets keep their own per-socket state
};

} // namespace

const cmdbench_transport &rsocket_transport() {
    return transport;
}

} // namespace cmdbench::rsocket_plugin

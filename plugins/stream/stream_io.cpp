// Connection setup and transfer loops for the stream tests (see stream_io.hpp).
#include "stream_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cmdbench/plugin-support/byte_order.hpp>
#include <cmdbench/plugin-support/peer_protocol.hpp>
#include <cmdbench/plugin-support/run_guard.hpp>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <new>
#include <sys/time.h>
#include <utility>

namespace cmdbench::stream {

namespace {

using cmdbench::support::errno_text;
using cmdbench::support::RunError;

// The transport hook already called set_error: keep its message.
[[noreturn]] void fail_reported() {
    throw cmdbench::support::reported_error(CMDBENCH_ERR);
}

bool would_block(int err) {
    return err == EAGAIN || err == EWOULDBLOCK || err == EINTR;
}

struct Address {
    sockaddr_storage storage{};
    socklen_t len = sizeof(sockaddr_storage);
};

// The first address for node:port; fresh hints per lookup (rstream quirk 6).
Address resolve(const Run &s, const char *node, uint16_t port, bool passive) {
    char service[8];
    std::snprintf(service, sizeof(service), "%u", static_cast<unsigned>(port));
    Address addr;
    const cmdbench_transport &tp = s.transport();
    if (tp.resolve) {
        if (tp.resolve(s.ctx(), &s.host(), node, service, passive ? 1 : 0, &addr.storage,
                       &addr.len) != 0)
            fail_reported();
        return addr;
    }
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
    addrinfo *found = nullptr;
    int rc = getaddrinfo(node, service, &hints, &found);
    if (rc == EAI_SYSTEM) fail_errno("getaddrinfo", errno);
    if (rc != 0) fail(std::string("getaddrinfo: ") + gai_strerror(rc));
    std::memcpy(&addr.storage, found->ai_addr, found->ai_addrlen);
    addr.len = found->ai_addrlen;
    freeaddrinfo(found);
    return addr;
}

Socket open_socket(const Run &s, const Address &addr) {
    int fd = s.transport().socket(addr.storage.ss_family, SOCK_STREAM, 0);
    if (fd < 0) fail_errno("rsocket failed", errno);
    return Socket(s, fd);
}

void configure(const Run &s, int fd, uint32_t stage, uint32_t hint) {
    const cmdbench_transport &tp = s.transport();
    if (tp.configure && tp.configure(s.ctx(), &s.host(), fd, stage, hint) != 0) fail_reported();
}

void set_nonblocking(const Run &s, int fd, bool on) {
    const cmdbench_transport &tp = s.transport();
    int flags = tp.fcntl(fd, F_GETFL, 0);
    if (flags < 0) fail_errno("rfcntl", errno);
    int wanted = on ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK);
    if (wanted != flags && tp.fcntl(fd, F_SETFL, wanted) < 0) fail_errno("rfcntl", errno);
}

// Wait until fd reports any of `events` (or an error), in bounded slices.
void wait_bounded(const Run &s, int fd, short events, const char *what) {
    for (;;) {
        pollfd p{fd, events, 0};
        int n = s.transport().poll(&p, 1, s.wait_slice_ms(what));
        if (n > 0) return;
        if (n < 0 && errno != EINTR) fail_errno("rpoll", errno);
    }
}

// Per-call timeouts for blocking mode so that a stalled peer cannot hold a
// blocking call beyond the run's timeout. Transports without them (rsockets)
// get a bounded poll before each call instead.
bool set_call_timeouts(const Run &s, int fd) {
    timeval tv{0, 200 * 1000};
    const cmdbench_transport &tp = s.transport();
    return tp.setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) == 0 &&
           tp.setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) == 0;
}

} // namespace

// ------------------------------------------------------------------ Run

Run::Run(const cmdbench_run_env &env)
    : env_(&env), host_(env.host), ctx_(env.ctx), transport_(env.transport),
      client_(env.role == CMDBENCH_ROLE_CLIENT), peer_host_(env.peer_host) {
    if (!transport_) fail("stream tests need a transport");
}

void Run::check_stop(const char *what) const {
    cmdbench::support::check_stop(*env_, what);
}

int Run::wait_slice_ms(const char *what) const {
    check_stop(what);
    return static_cast<int>(std::min<int64_t>(host_->remaining_ms(ctx_), kWaitSliceMs));
}

void Run::barrier(const char *name) const {
    cmdbench::support::Peer(*env_, "").barrier(name);
}

uint32_t Run::exchange(const void *data, uint32_t len, void *buf, uint32_t cap,
                       const char *what) const {
    return cmdbench::support::Peer(*env_, "").exchange(data, len, buf, cap, what);
}

// ------------------------------------------------------------------- Socket

Socket::~Socket() {
    if (fd_ >= 0) run_->transport().close(fd_);
}

void Socket::shutdown_and_close() {
    if (fd_ < 0) return;
    run_->transport().shutdown(fd_, SHUT_RDWR);
    run_->transport().close(fd_);
    fd_ = -1;
}

// ----------------------------------------------------------------- Listener

namespace {

Socket listening_socket(const Run &s, uint16_t port, uint32_t hint) {
    Address addr = resolve(s, s.peer_host(), port, true);
    Socket sock = open_socket(s, addr);
    const cmdbench_transport &tp = s.transport();
    int one = 1;
    if (tp.setsockopt(sock.fd(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0)
        fail_errno("rsetsockopt SO_REUSEADDR", errno);
    // Before bind and listen, so that buffer sizes reach the first accepted
    // connection (and its window scale) too.
    configure(s, sock.fd(), CMDBENCH_SOCK_LISTENER, hint);
    if (tp.bind(sock.fd(), reinterpret_cast<const sockaddr *>(&addr.storage), addr.len) != 0)
        fail_errno("rbind", errno);
    if (tp.listen(sock.fd(), 1) != 0) fail_errno("rlisten", errno);
    // Accept waits in a bounded poll; a non-blocking listener never blocks
    // on a connection that went away after the poll.
    set_nonblocking(s, sock.fd(), true);
    return sock;
}

} // namespace

Listener::Listener(const Run &run, uint16_t port, uint32_t hint)
    : run_(&run), sock_(listening_socket(run, port, hint)), hint_(hint) {}

uint16_t Listener::local_port() const {
    sockaddr_storage addr{};
    socklen_t len = sizeof(addr);
    if (run_->transport().getsockname(sock_.fd(), reinterpret_cast<sockaddr *>(&addr), &len) != 0)
        fail_errno("rgetsockname", errno);
    if (addr.ss_family == AF_INET6)
        return ntohs(reinterpret_cast<sockaddr_in6 *>(&addr)->sin6_port);
    if (addr.ss_family == AF_INET) return ntohs(reinterpret_cast<sockaddr_in *>(&addr)->sin_port);
    fail("rgetsockname: not an IP address");
}

Socket Listener::accept_client(bool configure_accepted_socket) {
    const Run &s = *run_;
    if (!fresh_configuration_) configure(s, sock_.fd(), CMDBENCH_SOCK_LISTENER, hint_);
    fresh_configuration_ = false;
    for (;;) {
        wait_bounded(s, sock_.fd(), POLLIN, "raccept");
        int fd = s.transport().accept(sock_.fd(), nullptr, nullptr);
        if (fd >= 0) {
            Socket accepted(s, fd);
            if (configure_accepted_socket) configure_accepted(fd);
            return accepted;
        }
        if (!would_block(errno) && errno != ECONNABORTED) fail_errno("raccept", errno);
    }
}

void Listener::configure_accepted(int fd) const {
    configure(*run_, fd, CMDBENCH_SOCK_ACCEPTED, hint_);
}

void announce_port(const Run &s, const Listener &listener, uint16_t port) {
    if (port != 0) {
        s.barrier("listening");
        return;
    }
    uint16_t bound = listener.local_port();
    uint8_t message[2];
    cmdbench::support::put_be(message, bound, 2);
    uint8_t ignored[2];
    s.exchange(message, sizeof(message), ignored, sizeof(ignored), "port exchange");
}

uint16_t learn_port(const Run &s, uint16_t port) {
    if (port != 0) {
        s.barrier("listening");
        return port;
    }
    const uint8_t nothing = 0;
    uint8_t message[2] = {0, 0};
    uint32_t got = s.exchange(&nothing, 0, message, sizeof(message), "port exchange");
    const auto announced = static_cast<uint16_t>(cmdbench::support::get_be(message, 2));
    if (got != sizeof(message) || announced == 0)
        fail("port exchange: the server sent no valid port");
    return announced;
}

// ------------------------------------------------------------------- client

Socket connect_to_server(const Run &s, uint16_t port, uint32_t hint, const std::string &local) {
    Address addr = resolve(s, s.peer_host(), port, false);
    Socket sock = open_socket(s, addr);
    configure(s, sock.fd(), CMDBENCH_SOCK_CLIENT, hint);
    // Non-blocking connect in every mode, so that its wait can be bounded.
    set_nonblocking(s, sock.fd(), true);
    const cmdbench_transport &tp = s.transport();
    if (!local.empty()) {
        Address from = resolve(s, local.c_str(), port, true);
        if (tp.bind(sock.fd(), reinterpret_cast<const sockaddr *>(&from.storage), from.len) != 0)
            fail_errno("rbind", errno);
    }
    if (tp.connect(sock.fd(), reinterpret_cast<const sockaddr *>(&addr.storage), addr.len) == 0)
        return sock;
    if (errno != EINPROGRESS && errno != EINTR) fail_errno("rconnect", errno);
    wait_bounded(s, sock.fd(), POLLOUT, "rconnect");
    int err = 0;
    socklen_t len = sizeof(err);
    if (tp.getsockopt(sock.fd(), SOL_SOCKET, SO_ERROR, &err, &len) != 0)
        fail_errno("rgetsockopt SO_ERROR", errno);
    if (err != 0) fail_errno("async rconnect", err);
    return sock;
}

// -------------------------------------------------------------- DataChannel

DataChannel::DataChannel(const Run &run, Socket sock, IoMode mode)
    : run_(&run), sock_(std::move(sock)), mode_(mode),
      flags_(mode.blocking ? MSG_WAITALL : MSG_DONTWAIT), poll_first_(mode.async) {
    set_nonblocking(run, sock_.fd(), !mode.blocking);
    if (mode.blocking && !set_call_timeouts(run, sock_.fd())) poll_first_ = true;
}

void DataChannel::wait_ready(short events, const char *call) {
    const cmdbench_transport &tp = run_->transport();
    hangup_ = 0;
    for (;;) {
        int timeout = mode_.blocking ? run_->wait_slice_ms(call) : 0;
        pollfd p{sock_.fd(), events, 0};
        int n = tp.poll(&p, 1, timeout);
        if (n > 0) {
            const short bits = p.revents & (POLLERR | POLLHUP);
            // Without -T a this wait is ours, not rstream's: the call that
            // follows reads what is left and reports the error itself.
            if (!bits || !mode_.async) return;
            // DEVIATION from rstream: readable data is drained first.
            if ((events & POLLIN) && (p.revents & POLLIN)) {
                hangup_ = bits;
                return;
            }
            fail_poll(call, bits, socket_error(bits & POLLERR ? "connection error" : "hang-up"));
        }
        if (n < 0 && errno != EINTR) fail_errno("rpoll", errno);
        if (!mode_.blocking) tick(call);
    }
}

std::string DataChannel::socket_error(const std::string &fallback) {
    int err = 0;
    socklen_t len = sizeof(err);
    if (run_->transport().getsockopt(sock_.fd(), SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err == 0)
        return fallback;
    return errno_text(err);
}

void DataChannel::fail_poll(const char *call, short bits, const std::string &detail) {
    const char *names = (bits & POLLERR) && (bits & POLLHUP) ? "POLLERR|POLLHUP"
                        : (bits & POLLERR)                   ? "POLLERR"
                                                             : "POLLHUP";
    fail(std::string(call) + ": " + detail + " (poll revents: " + names + ")");
}

void DataChannel::on_no_progress(const char *call) {
    if (mode_.blocking)
        run_->check_stop(call); // a per-call timeout expired: rare
    else
        tick(call);
}

void DataChannel::send_all(const uint8_t *buf, size_t len) {
    const cmdbench_transport &tp = run_->transport();
    size_t done = 0;
    while (done < len) {
        if (poll_first_) wait_ready(POLLOUT, "rsend");
        ssize_t n = tp.send(sock_.fd(), buf + done, len - done, flags_);
        if (n > 0) {
            done += static_cast<size_t>(n);
            tick("rsend");
        } else if (n < 0 && would_block(errno)) {
            on_no_progress("rsend");
        } else {
            fail_errno("rsend", n == 0 ? EIO : errno);
        }
    }
}

size_t DataChannel::recv_some(uint8_t *buf, size_t len) {
    const cmdbench_transport &tp = run_->transport();
    for (;;) {
        if (poll_first_) wait_ready(POLLIN, "rrecv");
        ssize_t n = tp.recv(sock_.fd(), buf, len, flags_);
        if (n >= 0) {
            tick("rrecv");
            return static_cast<size_t>(n);
        }
        if (!would_block(errno)) {
            if (hangup_) fail_poll("rrecv", hangup_, errno_text(errno));
            fail_errno("rrecv", errno);
        }
        on_no_progress("rrecv");
    }
}

void DataChannel::recv_all(uint8_t *buf, size_t len) {
    size_t done = 0;
    while (done < len) {
        size_t n = recv_some(buf + done, len - done);
        if (n == 0 && hangup_) fail_poll("rrecv", hangup_, "peer closed the connection");
        if (n == 0) fail("rrecv: peer closed the connection");
        done += n;
    }
}

ssize_t DataChannel::send_now(const uint8_t *buf, size_t len) {
    const ssize_t n = run_->transport().send(sock_.fd(), buf, len, flags_);
    if (n > 0) return n;
    if (n < 0 && would_block(errno)) return -1;
    fail_errno("rsend", n == 0 ? EIO : errno);
}

ssize_t DataChannel::recv_now(uint8_t *buf, size_t len) {
    const ssize_t n = run_->transport().recv(sock_.fd(), buf, len, flags_);
    if (n >= 0) return n;
    if (would_block(errno)) return -1;
    fail_errno("rrecv", errno);
}

void DataChannel::idle(bool want_recv, bool want_send) {
    if (!mode_.async) {
        tick("rrecv");
        return;
    }
    const short events = short((want_recv ? POLLIN : 0) | (want_send ? POLLOUT : 0));
    for (;;) {
        pollfd p{sock_.fd(), events, 0};
        const int n = run_->transport().poll(&p, 1, run_->wait_slice_ms("rpoll"));
        if (n > 0) {
            const short bits = p.revents & (POLLERR | POLLHUP);
            // Readable data (or the EOF) is taken by the next recv_now first.
            if (bits && !(p.revents & (POLLIN | POLLOUT)))
                fail_poll("rpoll", bits,
                          socket_error(bits & POLLERR ? "connection error" : "hang-up"));
            return;
        }
        if (n < 0 && errno != EINTR) fail_errno("rpoll", errno);
    }
}

void DataChannel::shutdown_send() {
    if (run_->transport().shutdown(sock_.fd(), SHUT_WR) != 0) fail_errno("rshutdown", errno);
}

} // namespace cmdbench::stream

// Transport "tcp": thin wrappers over the BSD socket calls, plus `configure`,
// which applies the transport's parameters the way rstream's set_options()
// does.
#include "tcp_transport.hpp"

#include <cerrno>
#include <cmdbench/plugin-support/run_error.hpp>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string>
#include <sys/socket.h>
#include <unistd.h>

namespace tcp_socket {
namespace {

constexpr int64_t kDefaultBufferSize = 524288; // rstream's default -B
constexpr int64_t kMaxBufferSize = 1073741824;
constexpr int64_t kMaxKeepaliveSeconds = 86400;

const cmdbench_param params[] = {
    CMDBENCH_PARAM_INT_DECL(
        "buffer_size", 524288, 0, kMaxBufferSize,
        "SO_SNDBUF and SO_RCVBUF in bytes; 0 keeps the OS default and its auto-tuning"),
    CMDBENCH_PARAM_BOOL_DECL("nodelay", true, "set TCP_NODELAY"),
    CMDBENCH_PARAM_INT_DECL("keepalive", 0, 0, kMaxKeepaliveSeconds,
                            "TCP keepalive idle time in seconds; 0 = off"),
};

// The transport's parameters for one run, read from the host.
struct Settings {
    int64_t buffer_size = kDefaultBufferSize;
    bool nodelay = true;
    int64_t keepalive = 0;
};

void report(cmdbench_ctx *ctx, const cmdbench_host *host, const std::string &what, int err) {
    host->set_error(ctx, (what + ": " + cmdbench::support::errno_text(err)).c_str());
}

bool read_settings(cmdbench_ctx *ctx, const cmdbench_host *host, Settings &out) {
    int nodelay = 1;
    if (host->param_int(ctx, "buffer_size", &out.buffer_size) != CMDBENCH_OK ||
        host->param_bool(ctx, "nodelay", &nodelay) != CMDBENCH_OK ||
        host->param_int(ctx, "keepalive", &out.keepalive) != CMDBENCH_OK) {
        host->set_error(ctx, "tcp: transport parameters unavailable");
        return false;
    }
    out.nodelay = nodelay != 0;
    return true;
}

bool set_int_option(cmdbench_ctx *ctx, const cmdbench_host *host, int sock, int level, int name,
                    int value, const char *label) {
    if (::setsockopt(sock, level, name, &value, sizeof(value)) == 0) return true;
    report(ctx, host, std::string("rsetsockopt ") + label, errno);
    return false;
}

// Read keepalive back, as rstream prints it, but as a debug log line.
void log_keepalive(cmdbench_ctx *ctx, const cmdbench_host *host, int sock) {
    int on = 0, idle = 0;
    socklen_t len = sizeof(on);
    ::getsockopt(sock, SOL_SOCKET, SO_KEEPALIVE, &on, &len);
    len = sizeof(idle);
    ::getsockopt(sock, IPPROTO_TCP, TCP_KEEPIDLE, &idle, &len);
    char line[64];
    std::snprintf(line, sizeof(line), "Keepalive: %s, time: %d", on ? "ON" : "OFF", idle);
    host->log(ctx, CMDBENCH_LOG_DEBUG, line);
}

int apply(cmdbench_ctx *ctx, const cmdbench_host *host, int sock, uint32_t stage) {
    Settings s;
    if (!read_settings(ctx, host, s)) return -1;
    // A listener only gets here before accept, when SO_REUSEADDR no longer
    // affects its bind; it is set for parity with rstream's listener setup.
    if (stage == CMDBENCH_SOCK_LISTENER &&
        !set_int_option(ctx, host, sock, SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR"))
        return -1;
    if (s.buffer_size > 0) {
        int size = static_cast<int>(s.buffer_size);
        if (!set_int_option(ctx, host, sock, SOL_SOCKET, SO_SNDBUF, size, "SO_SNDBUF") ||
            !set_int_option(ctx, host, sock, SOL_SOCKET, SO_RCVBUF, size, "SO_RCVBUF"))
            return -1;
    }
    if (!set_int_option(ctx, host, sock, IPPROTO_TCP, TCP_NODELAY, s.nodelay ? 1 : 0,
                        "TCP_NODELAY"))
        return -1;
    if (s.keepalive > 0) {
        if (!set_int_option(ctx, host, sock, SOL_SOCKET, SO_KEEPALIVE, 1, "SO_KEEPALIVE") ||
            !set_int_option(ctx, host, sock, IPPROTO_TCP, TCP_KEEPIDLE,
                            static_cast<int>(s.keepalive), "TCP_KEEPIDLE"))
            return -1;
        log_keepalive(ctx, host, sock);
    }
    return 0;
}

int tcp_configure(cmdbench_ctx *ctx, const cmdbench_host *host, int sock, uint32_t stage,
                  uint32_t /*hint: kernel TCP has no per-purpose tuning*/) {
    try {
        return apply(ctx, host, sock, stage);
    } catch (...) { // std::string allocation; nothing else throws
        host->set_error(ctx, "tcp configure: out of memory");
        return -1;
    }
}

int tcp_socket(int domain, int type, int protocol) {
    return ::socket(domain, type | SOCK_CLOEXEC, protocol);
}

int tcp_bind(int sock, const sockaddr *addr, socklen_t len) {
    return ::bind(sock, addr, len);
}

int tcp_listen(int sock, int backlog) {
    return ::listen(sock, backlog);
}

int tcp_accept(int sock, sockaddr *addr, socklen_t *len) {
    return ::accept4(sock, addr, len, SOCK_CLOEXEC);
}

int tcp_connect(int sock, const sockaddr *addr, socklen_t len) {
    return ::connect(sock, addr, len);
}

// MSG_NOSIGNAL: a vanished peer must be an EPIPE error, not a SIGPIPE that
// kills the whole host.
ssize_t tcp_send(int sock, const void *buf, size_t len, int flags) {
    return ::send(sock, buf, len, flags | MSG_NOSIGNAL);
}

ssize_t tcp_recv(int sock, void *buf, size_t len, int flags) {
    return ::recv(sock, buf, len, flags);
}

int tcp_poll(pollfd *fds, nfds_t nfds, int timeout_ms) {
    return ::poll(fds, nfds, timeout_ms);
}

int tcp_setsockopt(int sock, int level, int name, const void *val, socklen_t len) {
    return ::setsockopt(sock, level, name, val, len);
}

int tcp_getsockopt(int sock, int level, int name, void *val, socklen_t *len) {
    return ::getsockopt(sock, level, name, val, len);
}

// Only the status flags are part of the contract (as with rfcntl).
int tcp_fcntl(int sock, int cmd, int arg) {
    if (cmd == F_GETFL) return ::fcntl(sock, F_GETFL);
    if (cmd == F_SETFL) return ::fcntl(sock, F_SETFL, arg);
    errno = EINVAL;
    return -1;
}

int tcp_getsockname(int sock, sockaddr *addr, socklen_t *len) {
    return ::getsockname(sock, addr, len);
}

int tcp_shutdown(int sock, int how) {
    return ::shutdown(sock, how);
}

int tcp_close(int sock) {
    return ::close(sock);
}

const cmdbench_transport transport = {
    sizeof(cmdbench_transport),
    "tcp",
    "Kernel TCP sockets (rstream -T s)",
    0,
    sizeof(params) / sizeof(params[0]),
    params,
    nullptr, // probe: kernel TCP is always there
    tcp_configure,
    nullptr, // resolve: the host's getaddrinfo covers IPv4, IPv6 and names
    tcp_socket,
    tcp_bind,
    tcp_listen,
    tcp_accept,
    tcp_connect,
    tcp_send,
    tcp_recv,
    tcp_poll,
    tcp_setsockopt,
    tcp_getsockopt,
    tcp_fcntl,
    tcp_getsockname,
    tcp_shutdown,
    tcp_close,
    nullptr, // local_node: 127.0.0.1 will do
    nullptr, // sock_ops (ABI 1.2): none
};

} // namespace

const cmdbench_transport &tcp_transport() {
    return transport;
}

} // namespace tcp_socket

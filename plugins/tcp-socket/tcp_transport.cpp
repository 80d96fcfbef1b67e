// Transport "tcp": the host's libc socket calls, plus `configure`, which
// applies the transport's parameters the way rstream's set_options() does.
#include "tcp_transport.hpp"

#include <cerrno>
#include <cmdbench/plugin-support/run_error.hpp>
#include <cstdio>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string>
#include <sys/socket.h>

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

// What kernel TCP adds to the libc calls: its parameters and `configure`.
// Every data-path hook (socket ... close) is left NULL, so the host calls
// libc on the socket (ABI 1.2): the fd-based model docs/plugin-abi.md
// asks transports to follow.
cmdbench_transport describe() {
    cmdbench_transport t{};
    t.struct_size = sizeof(t);
    t.name = "tcp";
    t.description = "Kernel TCP sockets (rstream -T s)";
    t.param_count = sizeof(params) / sizeof(params[0]);
    t.params = params;
    t.configure = tcp_configure;
    // probe: kernel TCP is always there; resolve: the host's getaddrinfo
    // covers IPv4, IPv6 and names; local_node: 127.0.0.1 will do.
    return t;
}

} // namespace

const cmdbench_transport &tcp_transport() {
    static const cmdbench_transport transport = describe();
    return transport;
}

} // namespace tcp_socket

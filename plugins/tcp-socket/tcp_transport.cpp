// Transport "tcp": the host's libc socket calls, plus `configure`, which
// applies the transport's parameters the way rstream's set_options() does.
#include "tcp_transport.hpp"

#include <cerrno>
#include <cmdbench/plugin-support/param_spec.hpp>
#include <cmdbench/plugin-support/run_error.hpp>
#include <cstdio>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string>
#include <sys/socket.h>

namespace cmdbench::tcp_socket {
namespace {

constexpr int64_t kDefaultBufferSize = 524288; // rstream's default -B
constexpr int64_t kMaxBufferSize = 1073741824;
constexpr int64_t kMaxKeepaliveSeconds = 86400;

// The transport's parameters for one run, read from the host.
struct Settings {
    int64_t buffer_size;
    bool nodelay;
    int64_t keepalive;
};

const cmdbench::support::ParamSpec<Settings> &params() {
    static const auto spec = [] {
        cmdbench::support::ParamSpec<Settings> p;
        p.integer("buffer_size", &Settings::buffer_size, kDefaultBufferSize, 0, kMaxBufferSize,
                  "SO_SNDBUF and SO_RCVBUF in bytes; 0 keeps the OS default and its auto-tuning")
            .flag("nodelay", &Settings::nodelay, true, "set TCP_NODELAY")
            .integer("keepalive", &Settings::keepalive, 0, 0, kMaxKeepaliveSeconds,
                     "TCP keepalive idle time in seconds; 0 = off");
        return p;
    }();
    return spec;
}

void report(cmdbench_ctx *ctx, const cmdbench_host *host, const std::string &what, int err) {
    host->set_error(ctx, (what + ": " + cmdbench::support::errno_text(err)).c_str());
}

bool read_settings(cmdbench_ctx *ctx, const cmdbench_host *host, Settings &out) {
    try {
        params().fill(cmdbench::support::ParamReader(host, ctx, "tcp"), out);
    } catch (const cmdbench::support::RunError &) {
        host->set_error(ctx, "tcp: transport parameters unavailable");
        return false;
    }
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
    Settings s{};
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
    t.param_count = params().size();
    t.params = params().table();
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

} // namespace cmdbench::tcp_socket

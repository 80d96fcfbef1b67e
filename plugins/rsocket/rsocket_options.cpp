// Parameters of transport "rsocket" and its `configure` hook: rstream's
// set_options() with librdmacm's rules: SOL_RDMA
// options only before the connection starts, so they go on client sockets
// and on the listener; accepted sockets inherit them.
#include "rsocket_transport.hpp"

#include <cerrno>
#include <cmdbench/plugin-support/run_error.hpp>
#include <cstdio>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <rdma/rsocket.h>
#include <string>

namespace cmdbench::rsocket_plugin {

namespace {
constexpr int64_t kMaxBufferSize = 1073741824;
constexpr int64_t kMaxQueueSize = 65534;
constexpr int64_t kMaxInline = 65536;
constexpr int64_t kMaxKeepaliveSeconds = 86400;
} // namespace

const cmdbench::support::ParamSpec<Settings> &transport_params() {
    static const auto spec = [] {
        using cmdbench::support::Choice;
        cmdbench::support::ParamSpec<Settings> p;
        p.integer("buffer_size", &Settings::buffer_size, 524288, 0, kMaxBufferSize,
                  "SO_SNDBUF and SO_RCVBUF in bytes (rsockets double it); 0 = library default")
            .integer("inline_size", &Settings::inline_size, 64, 0, kMaxInline,
                     "RDMA_INLINE for latency sockets (rstream -i); bandwidth sockets get 0, "
                     "others the default")
            .integer("sq_size", &Settings::sq_size, 0, 0, kMaxQueueSize,
                     "RDMA_SQSIZE send queue depth; 0 = library default (384)")
            .integer("rq_size", &Settings::rq_size, 0, 0, kMaxQueueSize,
                     "RDMA_RQSIZE receive queue depth; 0 = library default (384)")
            .integer("iomap_size", &Settings::iomap_size, 0, 0, kMaxQueueSize,
                     "RDMA_IOMAPSIZE remote io mappings; 0 = none (library default)")
            .integer("keepalive", &Settings::keepalive, 0, 0, kMaxKeepaliveSeconds,
                     "keepalive period in seconds (SO_KEEPALIVE + TCP_KEEPIDLE); 0 = off")
            .choice(
                "resolver", &Settings::resolver,
                Choice<Resolver>{{"getaddrinfo", Resolver::Getaddrinfo}, {"rdma", Resolver::Rdma}},
                Resolver::Getaddrinfo,
                "address resolution: getaddrinfo, or rdma_getaddrinfo (rstream -T r)")
            .choice("address_format", &Settings::address_format,
                    Choice<AddressFormat>{{"name", AddressFormat::Name},
                                          {"ip", AddressFormat::Ip},
                                          {"gid", AddressFormat::Gid}},
                    AddressFormat::Name,
                    "name: any host; ip: numeric only; gid: an IB GID, AF_IB via rdma_getaddrinfo "
                    "(rstream -f)");
        return p;
    }();
    return spec;
}

namespace {

bool read_settings(cmdbench_ctx *ctx, const cmdbench_host *host, Settings &s) {
    try {
        transport_params().fill(cmdbench::support::ParamReader(host, ctx, "rsocket"), s);
    } catch (const cmdbench::support::RunError &e) {
        host->set_error(ctx, e.what());
        return false;
    }
    return true;
}

bool set_int(cmdbench_ctx *ctx, const cmdbench_host *host, int sock, int level, int name,
             int64_t value, const char *label) {
    int v = static_cast<int>(value);
    if (rsetsockopt(sock, level, name, &v, sizeof(v)) == 0) return true;
    host->set_error(
        ctx, (std::string("rsetsockopt ") + label + ": " + cmdbench::support::errno_text(errno))
                 .c_str());
    return false;
}

// The SOL_RDMA options, only valid before the connection starts.
bool set_rdma_options(cmdbench_ctx *ctx, const cmdbench_host *host, int sock, const Settings &s,
                      uint32_t hint) {
    if (s.sq_size > 0 && !set_int(ctx, host, sock, SOL_RDMA, RDMA_SQSIZE, s.sq_size, "RDMA_SQSIZE"))
        return false;
    if (s.rq_size > 0 && !set_int(ctx, host, sock, SOL_RDMA, RDMA_RQSIZE, s.rq_size, "RDMA_RQSIZE"))
        return false;
    if (s.iomap_size > 0 &&
        !set_int(ctx, host, sock, SOL_RDMA, RDMA_IOMAPSIZE, s.iomap_size, "RDMA_IOMAPSIZE"))
        return false;
    // rstream: -i for the latency phase, 0 for the bandwidth phase, the
    // library default for anything else (custom mode).
    if (hint == CMDBENCH_HINT_LATENCY)
        return set_int(ctx, host, sock, SOL_RDMA, RDMA_INLINE, s.inline_size, "RDMA_INLINE");
    if (hint == CMDBENCH_HINT_BANDWIDTH)
        return set_int(ctx, host, sock, SOL_RDMA, RDMA_INLINE, 0, "RDMA_INLINE");
    return true;
}

void log_keepalive(cmdbench_ctx *ctx, const cmdbench_host *host, int sock) {
    int on = 0, idle = 0;
    socklen_t len = sizeof(on);
    rgetsockopt(sock, SOL_SOCKET, SO_KEEPALIVE, &on, &len);
    len = sizeof(idle);
    rgetsockopt(sock, IPPROTO_TCP, TCP_KEEPIDLE, &idle, &len);
    char line[64];
    std::snprintf(line, sizeof(line), "Keepalive: %s, time: %d", on ? "ON" : "OFF", idle);
    host->log(ctx, CMDBENCH_LOG_DEBUG, line);
}

int apply(cmdbench_ctx *ctx, const cmdbench_host *host, int sock, uint32_t stage, uint32_t hint) {
    Settings s{};
    if (!read_settings(ctx, host, s)) return -1;
    // An accepted rsocket already has its buffers and queue pair: sizes and
    // SOL_RDMA options came from the listener.
    if (stage != CMDBENCH_SOCK_ACCEPTED) {
        if (s.buffer_size > 0 &&
            (!set_int(ctx, host, sock, SOL_SOCKET, SO_SNDBUF, s.buffer_size, "SO_SNDBUF") ||
             !set_int(ctx, host, sock, SOL_SOCKET, SO_RCVBUF, s.buffer_size, "SO_RCVBUF")))
            return -1;
        if (!set_rdma_options(ctx, host, sock, s, hint)) return -1;
    }
    if (!set_int(ctx, host, sock, IPPROTO_TCP, TCP_NODELAY, 1, "TCP_NODELAY")) return -1;
    // On the listener too, as rstream's set_options(): the library only
    // sends keepalives on connected sockets, but it reads back as set.
    if (s.keepalive > 0) {
        if (!set_int(ctx, host, sock, SOL_SOCKET, SO_KEEPALIVE, 1, "SO_KEEPALIVE") ||
            !set_int(ctx, host, sock, IPPROTO_TCP, TCP_KEEPIDLE, s.keepalive, "TCP_KEEPIDLE"))
            return -1;
        log_keepalive(ctx, host, sock);
    }
    if (stage == CMDBENCH_SOCK_CLIENT && apply_route(ctx, host, sock) != 0) return -1;
    return 0;
}

} // namespace

int configure(cmdbench_ctx *ctx, const cmdbench_host *host, int sock, uint32_t stage,
              uint32_t hint) {
    try {
        return apply(ctx, host, sock, stage, hint);
    } catch (...) { // std::string allocation; nothing else throws
        host->set_error(ctx, "rsocket configure: out of memory");
        return -1;
    }
}

} // namespace cmdbench::rsocket_plugin

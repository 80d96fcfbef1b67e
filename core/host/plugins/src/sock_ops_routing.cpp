#include "sock_ops_routing.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <memory>
#include <mutex>
#include <new>
#include <utility>

namespace cmdbench {
namespace {

// One loaded sock_ops transport: its hooks, and its plain hooks for the
// ones sock_ops leaves NULL.
struct Route {
    const cmdbench_sock_ops *ops = nullptr;
    cmdbench_transport plain{};
};

std::array<Route, kMaxRoutedTransports> g_routes;
std::array<bool, kMaxRoutedTransports> g_route_used{};
std::mutex g_routes_mu;

// The table: a socket's route and pointer, indexed by the handle. Written by
// the thread that made the socket before the handle leaves the hook, read
// by any thread after. Zero-initialised static storage: the kernel backs a
// page of it only once a handle in that page is used.
struct Slot {
    std::atomic<const Route *> route{nullptr};
    std::atomic<void *> ctx{nullptr};
};
constexpr unsigned kHandles = 1u << 20;
Slot g_slots[kHandles];

Slot *slot(int sock) {
    return sock >= 0 && static_cast<unsigned>(sock) < kHandles ? &g_slots[sock] : nullptr;
}

struct Found {
    const Route *route;
    void *ctx;
};

bool find(int sock, Found &out) {
    Slot *s = slot(sock);
    if (!s) return false;
    out.route = s->route.load(std::memory_order_acquire);
    out.ctx = s->ctx.load(std::memory_order_relaxed);
    return out.route != nullptr;
}

int bad_handle() {
    errno = EBADF;
    return -1;
}

// Keeps a new socket's pointer; a handle the table cannot hold is closed.
int remember(const Route &r, int sock, void *ctx) {
    if (sock < 0) return sock;
    Slot *s = slot(sock);
    if (!s) {
        if (r.ops->close)
            r.ops->close(ctx, sock);
        else
            r.plain.close(sock);
        errno = EMFILE;
        return -1;
    }
    s->ctx.store(ctx, std::memory_order_relaxed);
    s->route.store(&r, std::memory_order_release);
    return sock;
}

int open_socket(const Route &r, int domain, int type, int protocol) {
    void *ctx = nullptr;
    int sock = r.ops->socket ? r.ops->socket(r.ops->transport_ctx, domain, type, protocol, &ctx)
                             : r.plain.socket(domain, type, protocol);
    return remember(r, sock, ctx);
}

int poll_sockets(const Route &r, pollfd *fds, nfds_t nfds, int timeout_ms) {
    constexpr nfds_t kOnStack = 16;
    void *on_stack[kOnStack];
    std::unique_ptr<void *[]> on_heap;
    void **ctxs = on_stack;
    if (nfds > kOnStack) {
        on_heap.reset(new (std::nothrow) void *[nfds]);
        if (!on_heap) {
            errno = ENOMEM;
            return -1;
        }
        ctxs = on_heap.get();
    }
    for (nfds_t i = 0; i < nfds; ++i) {
        Found f{};
        ctxs[i] = fds[i].fd >= 0 && find(fds[i].fd, f) ? f.ctx : nullptr;
    }
    return r.ops->poll(r.ops->transport_ctx, ctxs, fds, nfds, timeout_ms);
}

// socket() and poll() carry no handle: each route gets entry points of its
// own, compiled for every slot of g_routes.
template <size_t I> int route_socket(int domain, int type, int protocol) {
    return open_socket(g_routes[I], domain, type, protocol);
}
template <size_t I> int route_poll(pollfd *fds, nfds_t nfds, int timeout_ms) {
    return poll_sockets(g_routes[I], fds, nfds, timeout_ms);
}
struct EntryPoints {
    int (*socket)(int, int, int);
    int (*poll)(pollfd *, nfds_t, int);
};
template <size_t... I>
constexpr std::array<EntryPoints, sizeof...(I)> entry_points(std::index_sequence<I...>) {
    return {{{route_socket<I>, route_poll<I>}...}};
}
constexpr auto kEntryPoints = entry_points(std::make_index_sequence<kMaxRoutedTransports>());

int route_accept(int sock, sockaddr *addr, socklen_t *len) {
    Found f{};
    if (!find(sock, f)) return bad_handle();
    const Route &r = *f.route;
    void *accepted_ctx = nullptr;
    int fd = r.ops->accept ? r.ops->accept(f.ctx, sock, addr, len, &accepted_ctx)
                           : r.plain.accept(sock, addr, len);
    return remember(r, fd, accepted_ctx);
}

// The slot is cleared before the close: once closed, the number may be
// handed out again by another thread's socket().
int route_close(int sock) {
    Slot *s = slot(sock);
    const Route *r = s ? s->route.exchange(nullptr, std::memory_order_acq_rel) : nullptr;
    if (!r) return bad_handle();
    void *ctx = s->ctx.exchange(nullptr, std::memory_order_relaxed);
    return r->ops->close ? r->ops->close(ctx, sock) : r->plain.close(sock);
}

// The rest: find the socket's pointer, call its sock_ops hook (or the
// plain one, for a handle of a route that lacks it).
#define CMDBENCH_ROUTE(ret, hook, params, args)                                                    \
    ret route_##hook params {                                                                      \
        Found f{};                                                                                 \
        if (!find(sock, f)) return bad_handle();                                                   \
        const Route &r = *f.route;                                                                 \
        return r.ops->hook ? r.ops->hook(f.ctx, sock, args) : r.plain.hook(sock, args);            \
    }
#define CMDBENCH_ARGS(...) __VA_ARGS__
CMDBENCH_ROUTE(int, bind, (int sock, const sockaddr *addr, socklen_t len), CMDBENCH_ARGS(addr, len))
CMDBENCH_ROUTE(int, listen, (int sock, int backlog), backlog)
CMDBENCH_ROUTE(int, connect, (int sock, const sockaddr *addr, socklen_t len),
               CMDBENCH_ARGS(addr, len))
CMDBENCH_ROUTE(ssize_t, send, (int sock, const void *buf, size_t len, int flags),
               CMDBENCH_ARGS(buf, len, flags))
CMDBENCH_ROUTE(ssize_t, recv, (int sock, void *buf, size_t len, int flags),
               CMDBENCH_ARGS(buf, len, flags))
CMDBENCH_ROUTE(int, setsockopt, (int sock, int level, int name, const void *val, socklen_t len),
               CMDBENCH_ARGS(level, name, val, len))
CMDBENCH_ROUTE(int, getsockopt, (int sock, int level, int name, void *val, socklen_t *len),
               CMDBENCH_ARGS(level, name, val, len))
CMDBENCH_ROUTE(int, fcntl, (int sock, int cmd, int arg), CMDBENCH_ARGS(cmd, arg))
CMDBENCH_ROUTE(int, getsockname, (int sock, sockaddr *addr, socklen_t *len),
               CMDBENCH_ARGS(addr, len))
CMDBENCH_ROUTE(int, shutdown, (int sock, int how), how)
#undef CMDBENCH_ROUTE
#undef CMDBENCH_ARGS

void release_route(size_t i) {
    std::lock_guard<std::mutex> lock(g_routes_mu);
    g_routes[i] = Route{};
    g_route_used[i] = false;
}

} // namespace

Expected<std::shared_ptr<void>> route_sock_ops(cmdbench_transport &t,
                                               const cmdbench_sock_ops &ops) {
    size_t i = 0;
    {
        std::lock_guard<std::mutex> lock(g_routes_mu);
        while (i < kMaxRoutedTransports && g_route_used[i])
            ++i;
        if (i == kMaxRoutedTransports) {
            return unexpected("more than " + std::to_string(kMaxRoutedTransports) +
                              " transports with sock_ops are loaded at once");
        }
        g_route_used[i] = true;
        g_routes[i] = Route{&ops, t};
    }
    // Hooks the table depends on are always routed; the rest only when the
    // transport has them, so a hook it leaves NULL costs nothing extra.
    t.socket = kEntryPoints[i].socket;
    t.accept = route_accept;
    t.close = route_close;
    if (ops.poll) t.poll = kEntryPoints[i].poll;
    if (ops.bind) t.bind = route_bind;
    if (ops.listen) t.listen = route_listen;
    if (ops.connect) t.connect = route_connect;
    if (ops.send) t.send = route_send;
    if (ops.recv) t.recv = route_recv;
    if (ops.setsockopt) t.setsockopt = route_setsockopt;
    if (ops.getsockopt) t.getsockopt = route_getsockopt;
    if (ops.fcntl) t.fcntl = route_fcntl;
    if (ops.getsockname) t.getsockname = route_getsockname;
    if (ops.shutdown) t.shutdown = route_shutdown;
    return std::shared_ptr<void>(
        std::shared_ptr<Route>(&g_routes[i], [i](Route *) { release_route(i); }));
}

} // namespace cmdbench

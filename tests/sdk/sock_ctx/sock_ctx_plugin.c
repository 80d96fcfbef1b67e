/*
 * Two ABI 1.2 transports for e2e-sock-ctx, built against the SDK header alone:
 *
 * `ctx-probe` implements every data-path hook as a sock_ops hook (libc on
 * the fd underneath) and checks, in each call, that the pointer it gets
 * back is the one it gave that socket (and the transport's own for socket
 * and poll). A wrong pointer fails the call with EBADE. When a socket is
 * closed, one line goes to the file named by CTX_PROBE_LOG:
 *   "fd=<n> socket=<calls> bind=<calls> ... close=1 bad=<wrong pointers>"
 *
 * `bare-libc` sets no data-path hook at all: the host's libc calls move
 * the data.
 */
#define _GNU_SOURCE
#include <cmdbench/plugin.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum hook {
    H_SOCKET,
    H_ACCEPT,
    H_BIND,
    H_LISTEN,
    H_CONNECT,
    H_SEND,
    H_RECV,
    H_POLL,
    H_SETSOCKOPT,
    H_GETSOCKOPT,
    H_FCNTL,
    H_GETSOCKNAME,
    H_SHUTDOWN,
    H_CLOSE,
    H_COUNT
};
static const char *const hook_names[H_COUNT] = {
    "socket", "accept",     "bind",       "listen", "connect",     "send",     "recv",
    "poll",   "setsockopt", "getsockopt", "fcntl",  "getsockname", "shutdown", "close"};

#define SOCK_MAGIC 0x736f636b63747821ull

/* What the transport keeps per socket: exactly what a global table would
 * otherwise hold. */
struct sock_state {
    uint64_t magic;
    int fd;
    unsigned calls[H_COUNT];
    unsigned bad; /* calls whose pointer was not this socket's */
};

static int transport_state; /* its address is the transport's pointer */

static struct sock_state *new_state(int fd, enum hook made_by) {
    struct sock_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->magic = SOCK_MAGIC;
    s->fd = fd;
    s->calls[made_by] = 1;
    return s;
}

/* 1 if `ctx` is the state of `sock`; counts the call either way. */
static int mine(void *ctx, int sock, enum hook h) {
    struct sock_state *s = ctx;
    if (!s || s->magic != SOCK_MAGIC || s->fd != sock) {
        errno = EBADE;
        return 0;
    }
    s->calls[h]++;
    return 1;
}

static void log_closed(const struct sock_state *s) {
    const char *path = getenv("CTX_PROBE_LOG");
    if (!path) return;
    char line[512];
    int n = snprintf(line, sizeof line, "fd=%d", s->fd);
    for (int h = 0; h < H_COUNT; ++h)
        n += snprintf(line + n, sizeof line - (size_t)n, " %s=%u", hook_names[h], s->calls[h]);
    n += snprintf(line + n, sizeof line - (size_t)n, " bad=%u\n", s->bad);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return;
    ssize_t w = write(fd, line, (size_t)n); /* one line per write: O_APPEND keeps it whole */
    (void)w;
    close(fd);
}

static int p_socket(void *tctx, int domain, int type, int protocol, void **sock_ctx) {
    if (tctx != &transport_state) {
        errno = EBADE;
        return -1;
    }
    int fd = socket(domain, type | SOCK_CLOEXEC, protocol);
    if (fd < 0) return -1;
    *sock_ctx = new_state(fd, H_SOCKET);
    return fd;
}

static int p_accept(void *ctx, int sock, struct sockaddr *addr, socklen_t *len, void **accepted) {
    if (!mine(ctx, sock, H_ACCEPT)) return -1;
    int fd = accept4(sock, addr, len, SOCK_CLOEXEC);
    if (fd < 0) return -1;
    *accepted = new_state(fd, H_ACCEPT);
    return fd;
}

static int p_bind(void *ctx, int sock, const struct sockaddr *addr, socklen_t len) {
    return mine(ctx, sock, H_BIND) ? bind(sock, addr, len) : -1;
}
static int p_listen(void *ctx, int sock, int backlog) {
    return mine(ctx, sock, H_LISTEN) ? listen(sock, backlog) : -1;
}
static int p_connect(void *ctx, int sock, const struct sockaddr *addr, socklen_t len) {
    return mine(ctx, sock, H_CONNECT) ? connect(sock, addr, len) : -1;
}
static ssize_t p_send(void *ctx, int sock, const void *buf, size_t len, int flags) {
    return mine(ctx, sock, H_SEND) ? send(sock, buf, len, flags | MSG_NOSIGNAL) : -1;
}
static ssize_t p_recv(void *ctx, int sock, void *buf, size_t len, int flags) {
    return mine(ctx, sock, H_RECV) ? recv(sock, buf, len, flags) : -1;
}
static int p_poll(void *tctx, void *const *ctxs, struct pollfd *fds, nfds_t nfds, int timeout) {
    if (tctx != &transport_state) {
        errno = EBADE;
        return -1;
    }
    for (nfds_t i = 0; i < nfds; ++i)
        if (fds[i].fd >= 0 && !mine(ctxs[i], fds[i].fd, H_POLL)) return -1;
    return poll(fds, nfds, timeout);
}
static int p_setsockopt(void *ctx, int sock, int level, int name, const void *val, socklen_t len) {
    return mine(ctx, sock, H_SETSOCKOPT) ? setsockopt(sock, level, name, val, len) : -1;
}
static int p_getsockopt(void *ctx, int sock, int level, int name, void *val, socklen_t *len) {
    return mine(ctx, sock, H_GETSOCKOPT) ? getsockopt(sock, level, name, val, len) : -1;
}
static int p_fcntl(void *ctx, int sock, int cmd, int arg) {
    if (!mine(ctx, sock, H_FCNTL)) return -1;
    return cmd == F_SETFL ? fcntl(sock, F_SETFL, arg) : fcntl(sock, F_GETFL);
}
static int p_getsockname(void *ctx, int sock, struct sockaddr *addr, socklen_t *len) {
    return mine(ctx, sock, H_GETSOCKNAME) ? getsockname(sock, addr, len) : -1;
}
static int p_shutdown(void *ctx, int sock, int how) {
    return mine(ctx, sock, H_SHUTDOWN) ? shutdown(sock, how) : -1;
}
/* The pointer's last use: log and free it. */
static int p_close(void *ctx, int sock) {
    struct sock_state *s = ctx;
    if (!mine(ctx, sock, H_CLOSE)) {
        close(sock);
        errno = EBADE;
        return -1;
    }
    log_closed(s);
    free(s);
    return close(sock);
}

/* Not a data-path hook: TCP_NODELAY, as transport tcp sets it, so that
 * latencies compare with tcp's. */
static int nodelay(cmdbench_ctx *ctx, const struct cmdbench_host *host, int sock, uint32_t stage,
                   uint32_t hint) {
    (void)hint;
    if (stage == CMDBENCH_SOCK_LISTENER) return 0;
    int one = 1;
    if (setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) == 0) return 0;
    host->set_error(ctx, "TCP_NODELAY failed");
    return -1;
}

static const struct cmdbench_sock_ops probe_ops = {
    .struct_size = sizeof(struct cmdbench_sock_ops),
    .transport_ctx = &transport_state,
    .socket = p_socket,
    .accept = p_accept,
    .bind = p_bind,
    .listen = p_listen,
    .connect = p_connect,
    .send = p_send,
    .recv = p_recv,
    .poll = p_poll,
    .setsockopt = p_setsockopt,
    .getsockopt = p_getsockopt,
    .fcntl = p_fcntl,
    .getsockname = p_getsockname,
    .shutdown = p_shutdown,
    .close = p_close,
};

/* Plain hooks all NULL: sock_ops has every one. */
static const struct cmdbench_transport ctx_probe = {
    .struct_size = sizeof(struct cmdbench_transport),
    .name = "ctx-probe",
    .description = "TCP whose every data-path hook checks the pointer it gets back",
    .configure = nodelay,
    .sock_ops = &probe_ops,
};

static const struct cmdbench_transport bare_libc = {
    .struct_size = sizeof(struct cmdbench_transport),
    .name = "bare-libc",
    .description = "TCP with no data-path hooks: the host's libc calls",
    .configure = nodelay,
};

static const struct cmdbench_transport *const transports[] = {&ctx_probe, &bare_libc};

static const struct cmdbench_plugin plugin = {
    .struct_size = sizeof(struct cmdbench_plugin),
    .abi_major = CMDBENCH_ABI_MAJOR,
    .abi_minor = CMDBENCH_ABI_MINOR,
    .name = "sock-ctx",
    .version = "0.1.0",
    .description = "sock_ops context pointers and NULL-means-libc hooks (tests)",
    .transport_count = 2,
    .transports = transports,
};

CMDBENCH_PLUGIN_ENTRY {
    return &plugin;
}

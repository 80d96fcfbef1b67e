/*
 * Test "connect-only": can the client reach the server over the chosen
 * transport, and how long does a connection take? The client opens `count`
 * connections one after the other; the server accepts each and closes it at
 * once. One result row: the number of connections and a histogram of the
 * time each connect() took to complete.
 *
 * This file is a skeleton to copy: the hook a test implements (`run`), what
 * it must do, and what it must not. The rules (docs/plugin-abi.md):
 *
 *  - run() is called once per peer and role (client in `cmdbench run`,
 *    server in the `cmdbench serve` process), on a host thread. It may
 *    block, but EVERY wait must be bounded by host->remaining_ms(ctx), and
 *    every loop must check host->cancelled(ctx): a test that ignores both
 *    is abandoned by the host's watchdog 5 s after its deadline, and the
 *    process then exits.
 *  - Threads: a test may start its own, and must join them before run()
 *    returns. A histogram is recorded into by one thread at a time.
 *  - Errors: call host->set_error(ctx, "one line") and return CMDBENCH_ERR
 *    (or CMDBENCH_ERR_TIMEOUT / _CANCELLED / _SKIP). Never exit(), abort()
 *    or print: the host owns the process and the output. A crash takes the
 *    whole cmdbench process down (the results of earlier runs are kept on
 *    disk, this run's are lost).
 *  - Memory: what the test allocates, it frees before returning. Rows and
 *    histograms belong to the host (freed after the run); strings and lists
 *    from param_* stay valid until run() returns.
 *  - Sockets: only through env->transport's calls, never libc's: handles
 *    belong to the transport (for rsocket they are not file descriptors).
 *    Bind and connect where the transport's resolve() says.
 */
#define _POSIX_C_SOURCE 200809L /* getaddrinfo with -std=c11 */
#include "connect_only.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

/* The parameters a scenario may set. The host validates every value against
 * these declarations (type, range) before any run starts, so run() can
 * trust what param_int returns. Static: the host keeps pointers to them. */
static const struct cmdbench_param params[] = {
    CMDBENCH_PARAM_INT_DECL("count", 10, 1, 100000, "connections to open, one after the other"),
    CMDBENCH_PARAM_INT_DECL("port", 0, 0, 65535,
                            "data port; 0 = ephemeral, announced over the control channel"),
};

/* One role of one run: what every helper below needs. */
struct session {
    const struct cmdbench_host *host;
    cmdbench_ctx *ctx;
    const struct cmdbench_transport *tp;
    const char *peer_host;
};

static int fail(const struct session *s, const char *message) {
    s->host->set_error(s->ctx, message);
    return CMDBENCH_ERR;
}

/* "<call>: <strerror>", the way the stream tests name a failed call. */
static int fail_errno(const struct session *s, const char *call, int err) {
    char line[160];
    snprintf(line, sizeof(line), "%s: %s", call, strerror(err));
    return fail(s, line);
}

/* CMDBENCH_OK while the run may go on; otherwise why it must stop. */
static int stop_status(const struct session *s, const char *what) {
    char line[160];
    if (s->host->remaining_ms(s->ctx) <= 0) {
        snprintf(line, sizeof(line), "%s: timed out", what);
        s->host->set_error(s->ctx, line);
        return CMDBENCH_ERR_TIMEOUT;
    }
    if (s->host->cancelled(s->ctx)) {
        snprintf(line, sizeof(line), "%s: cancelled", what);
        s->host->set_error(s->ctx, line);
        return CMDBENCH_ERR_CANCELLED;
    }
    return CMDBENCH_OK;
}

/* Waits until `sock` reports one of `events`, in slices of at most 1 s so
 * that a cancellation is seen promptly, and never past the run's deadline. */
static int wait_for(const struct session *s, int sock, short events, const char *what) {
    for (;;) {
        int status = stop_status(s, what);
        if (status != CMDBENCH_OK) return status;
        int64_t left = s->host->remaining_ms(s->ctx);
        struct pollfd p = {sock, events, 0};
        int n = s->tp->poll(&p, 1, (int)(left < 1000 ? left : 1000));
        if (n > 0) return CMDBENCH_OK;
        if (n < 0 && errno != EINTR) return fail_errno(s, "poll", errno);
    }
}

/* Where to bind (server) or connect (client): the transport's resolve hook
 * if it has one (it may not speak IP at all), else getaddrinfo. */
static int resolve(const struct session *s, uint16_t port, int passive,
                   struct sockaddr_storage *addr, socklen_t *len) {
    char service[8];
    snprintf(service, sizeof(service), "%u", (unsigned)port);
    if (s->tp->resolve)
        return s->tp->resolve(s->ctx, s->host, s->peer_host, service, passive, addr, len) == 0
                   ? CMDBENCH_OK
                   : CMDBENCH_ERR; /* the hook called set_error */
    struct addrinfo hints, *found = NULL;
    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
    int rc = getaddrinfo(s->peer_host, service, &hints, &found);
    if (rc != 0) return fail(s, gai_strerror(rc));
    memcpy(addr, found->ai_addr, found->ai_addrlen);
    *len = found->ai_addrlen;
    freeaddrinfo(found);
    return CMDBENCH_OK;
}

static int set_nonblocking(const struct session *s, int sock) {
    int flags = s->tp->fcntl(sock, F_GETFL, 0);
    if (flags < 0 || s->tp->fcntl(sock, F_SETFL, flags | O_NONBLOCK) < 0)
        return fail_errno(s, "fcntl", errno);
    return CMDBENCH_OK;
}

static int configure(const struct session *s, int sock, uint32_t stage) {
    if (s->tp->configure && s->tp->configure(s->ctx, s->host, sock, stage, CMDBENCH_HINT_NONE) != 0)
        return CMDBENCH_ERR; /* the hook called set_error */
    return CMDBENCH_OK;
}

/* The port a listener got (the ephemeral one when it asked for 0). */
static int bound_port(const struct session *s, int sock, uint16_t *port) {
    struct sockaddr_storage addr;
    socklen_t len = sizeof(addr);
    if (s->tp->getsockname(sock, (struct sockaddr *)&addr, &len) != 0)
        return fail_errno(s, "getsockname", errno);
    if (addr.ss_family == AF_INET)
        *port = ntohs(((struct sockaddr_in *)&addr)->sin_port);
    else if (addr.ss_family == AF_INET6)
        *port = ntohs(((struct sockaddr_in6 *)&addr)->sin6_port);
    else
        return fail(s, "getsockname: the transport reports no port");
    return CMDBENCH_OK;
}

/* ------------------------------------------------------------- server */

static int open_listener(const struct session *s, uint16_t port, int *out) {
    struct sockaddr_storage addr;
    socklen_t len = sizeof(addr);
    int status = resolve(s, port, 1, &addr, &len);
    if (status != CMDBENCH_OK) return status;
    int sock = s->tp->socket(addr.ss_family, SOCK_STREAM, 0);
    if (sock < 0) return fail_errno(s, "socket", errno);
    int one = 1;
    if (s->tp->setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0)
        status = fail_errno(s, "setsockopt SO_REUSEADDR", errno);
    if (status == CMDBENCH_OK) status = configure(s, sock, CMDBENCH_SOCK_LISTENER);
    if (status == CMDBENCH_OK && s->tp->bind(sock, (struct sockaddr *)&addr, len) != 0)
        status = fail_errno(s, "bind", errno);
    if (status == CMDBENCH_OK && s->tp->listen(sock, 16) != 0)
        status = fail_errno(s, "listen", errno);
    /* Non-blocking: accept only after a bounded poll, and a client that
     * vanished in between makes accept fail with EAGAIN, not hang. */
    if (status == CMDBENCH_OK) status = set_nonblocking(s, sock);
    if (status != CMDBENCH_OK) {
        s->tp->close(sock);
        return status;
    }
    *out = sock;
    return CMDBENCH_OK;
}

/* The client learns the port from the server: over the host's control
 * channel when it is ephemeral, or just waits until the server listens. */
static int announce_port(const struct session *s, int listener, uint16_t port) {
    if (port != 0) return s->host->barrier(s->ctx, "listening");
    int status = bound_port(s, listener, &port);
    if (status != CMDBENCH_OK) return status;
    uint8_t message[2] = {(uint8_t)(port >> 8), (uint8_t)port}, ignored[2];
    uint32_t got = 0;
    return s->host->exchange(s->ctx, message, sizeof(message), ignored, sizeof(ignored), &got);
}

static int accept_all(const struct session *s, int listener, int64_t count) {
    for (int64_t done = 0; done < count;) {
        int status = wait_for(s, listener, POLLIN, "accept");
        if (status != CMDBENCH_OK) return status;
        int sock = s->tp->accept(listener, NULL, NULL);
        if (sock < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || errno == ECONNABORTED)
                continue;
            return fail_errno(s, "accept", errno);
        }
        /* Closing at once is the answer the client waits for (EOF). */
        s->tp->close(sock);
        ++done;
    }
    return CMDBENCH_OK;
}

static int run_server(const struct session *s, int64_t count, uint16_t port) {
    int listener = -1;
    int status = open_listener(s, port, &listener);
    if (status != CMDBENCH_OK) return status;
    status = announce_port(s, listener, port);
    if (status == CMDBENCH_OK) status = accept_all(s, listener, count);
    s->tp->close(listener); /* every path closes what it opened */
    return status;
}

/* ------------------------------------------------------------- client */

static int learn_port(const struct session *s, uint16_t *port) {
    if (*port != 0) return s->host->barrier(s->ctx, "listening");
    uint8_t message[2] = {0, 0};
    uint32_t got = 0;
    int status = s->host->exchange(s->ctx, NULL, 0, message, sizeof(message), &got);
    if (status != CMDBENCH_OK) return status;
    *port = (uint16_t)(message[0] << 8 | message[1]);
    if (got != sizeof(message) || *port == 0) return fail(s, "the server announced no port");
    return CMDBENCH_OK;
}

/* One connection: connect (timed), then wait for the server's close. */
static int connect_once(const struct session *s, const struct sockaddr_storage *addr, socklen_t len,
                        uint64_t *elapsed_ns) {
    int sock = s->tp->socket(addr->ss_family, SOCK_STREAM, 0);
    if (sock < 0) return fail_errno(s, "socket", errno);
    int status = configure(s, sock, CMDBENCH_SOCK_CLIENT);
    if (status == CMDBENCH_OK) status = set_nonblocking(s, sock);
    const uint64_t start = s->host->now_ns();
    if (status == CMDBENCH_OK && s->tp->connect(sock, (const struct sockaddr *)addr, len) != 0) {
        /* Non-blocking, so that the wait for completion is bounded. */
        if (errno == EINPROGRESS || errno == EINTR)
            status = wait_for(s, sock, POLLOUT, "connect");
        else
            status = fail_errno(s, "connect", errno);
        int err = 0;
        socklen_t err_len = sizeof(err);
        if (status == CMDBENCH_OK &&
            s->tp->getsockopt(sock, SOL_SOCKET, SO_ERROR, &err, &err_len) != 0)
            status = fail_errno(s, "getsockopt SO_ERROR", errno);
        if (status == CMDBENCH_OK && err != 0) status = fail_errno(s, "connect", err);
    }
    *elapsed_ns = s->host->now_ns() - start;
    /* The server's close: proof that it accepted this very connection. */
    char byte;
    while (status == CMDBENCH_OK) {
        status = wait_for(s, sock, POLLIN, "waiting for the server's close");
        ssize_t n = status == CMDBENCH_OK ? s->tp->recv(sock, &byte, 1, 0) : 0;
        if (status != CMDBENCH_OK || n == 0) break;
        if (n > 0)
            status = fail(s, "the server sent data; expected it to close");
        else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            status = fail_errno(s, "recv", errno);
    }
    s->tp->close(sock);
    return status;
}

static int run_client(const struct session *s, int64_t count, uint16_t port) {
    int status = learn_port(s, &port);
    if (status != CMDBENCH_OK) return status;
    struct sockaddr_storage addr;
    socklen_t len = sizeof(addr);
    status = resolve(s, port, 0, &addr, &len);
    if (status != CMDBENCH_OK) return status;
    /* Owned by the host, freed after the run: nothing to free here. */
    cmdbench_hist *times = s->host->hist_create(s->ctx);
    for (int64_t i = 0; i < count; ++i) {
        uint64_t ns = 0;
        status = connect_once(s, &addr, len, &ns);
        if (status != CMDBENCH_OK) return status;
        s->host->hist_record(times, ns);
        s->host->progress(s->ctx, (uint64_t)(i + 1), (uint64_t)count);
    }
    /* A row is reported once row_end is called, and kept even if a later
     * row of the same run fails. */
    /* What the values mean (ABI 1.2), so variants are compared on them: the
     * connections made (CPU per connection divides by them) and how long
     * each connect took, lower being better. */
    static const struct cmdbench_metric_meaning made =
        CMDBENCH_MEANING(CMDBENCH_KIND_COUNT, CMDBENCH_BETTER_NONE, CMDBENCH_METRIC_PER_CONNECTION);
    static const struct cmdbench_metric_meaning connect_time = CMDBENCH_MEANING_LATENCY;
    cmdbench_row *row = s->host->row_begin(s->ctx, "connect");
    s->host->row_metric_ex(row, "connections", (double)count, CMDBENCH_UNIT_COUNT, &made);
    s->host->row_hist_ex(row, "connect", times, &connect_time);
    s->host->row_end(row);
    return CMDBENCH_OK;
}

/* --------------------------------------------------------------- hook */

/* The hook: one role of one run. Returns a cmdbench_status. */
static int run_connect_only(const struct cmdbench_run_env *env) {
    /* A host may be newer than this header: its tables can only be larger,
     * so everything this file uses is there. A field added by a later minor
     * would need `env->struct_size > offsetof(...)` before use. */
    struct session s = {env->host, env->ctx, env->transport, env->peer_host};
    if (!s.tp) return fail(&s, "connect-only needs a transport");
    int64_t count = 0, port = 0;
    if (s.host->param_int(s.ctx, "count", &count) != CMDBENCH_OK ||
        s.host->param_int(s.ctx, "port", &port) != CMDBENCH_OK)
        return fail(&s, "connect-only: parameters unavailable");
    return env->role == CMDBENCH_ROLE_CLIENT ? run_client(&s, count, (uint16_t)port)
                                             : run_server(&s, count, (uint16_t)port);
}

const struct cmdbench_test connect_only_test = {
    sizeof(struct cmdbench_test), /* struct_size: as compiled, always */
    "connect-only",               /* scenario `test = "connect-only"` */
    "opens `count` connections over the transport and times each connect",
    CMDBENCH_TEST_USES_TRANSPORT, /* the host passes the scenario's transport */
    sizeof(params) / sizeof(params[0]),
    params,
    run_connect_only,
};

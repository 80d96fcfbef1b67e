/*
 * cmdbench plugin ABI -- the only header a plugin needs.
 *
 * Plain C, fixed-width integers, function pointers and `const char *`.
 * Nothing crosses the boundary that needs C++ or a shared allocator:
 * what a plugin allocates, the plugin frees; what the host hands out
 * (histograms, rows) the host frees when the run ends.
 *
 * Versioning (see docs/plugin-abi.md):
 *  - CMDBENCH_ABI_MAJOR changes when an existing field or function changes
 *    meaning, type or position. The host refuses any other major.
 *  - CMDBENCH_ABI_MINOR grows when fields are appended to the end of a
 *    struct, or new enum values / flags / host services are added. The host
 *    loads plugins built against its own or an older minor, reading only the
 *    fields that each struct's `struct_size` covers; it refuses a newer one.
 *  - Every struct that crosses the boundary starts with `uint32_t struct_size`
 *    set to sizeof(the struct as the author compiled it).
 */
#ifndef CMDBENCH_PLUGIN_H
#define CMDBENCH_PLUGIN_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CMDBENCH_ABI_MAJOR 1
#define CMDBENCH_ABI_MINOR 3

/* The one symbol a plugin exports. */
#define CMDBENCH_ENTRY_SYMBOL "cmdbench_plugin_entry"

/* ---------------------------------------------------------------- params */

enum cmdbench_param_type {
    CMDBENCH_PARAM_BOOL = 1,    /* true/false */
    CMDBENCH_PARAM_INT = 2,     /* int64, range [min_int, max_int] */
    CMDBENCH_PARAM_DOUBLE = 3,  /* double, range [min_double, max_double] */
    CMDBENCH_PARAM_STRING = 4,  /* text; `choices` ("a|b|c") restricts it */
    CMDBENCH_PARAM_INT_LIST = 5 /* one or more int64, each in [min_int, max_int] */
};

/* A parameter a test or transport accepts. The host validates scenario values
 * against it (type and range) before anything runs, and builds help text and
 * `cmdbench plugins` output from it. */
struct cmdbench_param {
    uint32_t struct_size;
    const char *name;              /* scenario key: lower case, [a-z0-9_] */
    uint32_t type;                 /* enum cmdbench_param_type */
    const char *default_value;     /* in scenario syntax: "true", "64", "1.5",
                                      "tcp", "[64, 4096]"; NULL = required */
    int64_t min_int, max_int;      /* INT and INT_LIST */
    double min_double, max_double; /* DOUBLE */
    const char *choices;           /* STRING: "a|b|c", or NULL for free text */
    const char *help;              /* one line */
};

/* ABI 1.2: one parameter declaration each, instead of the positional
 * initialiser (struct_size, name, type, default, min_int, max_int,
 * min_double, max_double, choices, help). Defaults are in scenario syntax
 * written bare and quoted by the macro (CMDBENCH_PARAM_INT_DECL("n", 64, 1,
 * 1024, "help"), BOOL: true/false), except STRING's and INT_LIST's, which are
 * text ("tcp", "[64, 4096]"; NULL = required). */
#define CMDBENCH_PARAM_DECL_(name, type, dflt, lo, hi, dlo, dhi, choices, help)                    \
    {                                                                                              \
        sizeof(struct cmdbench_param), (name), (type), (dflt), (lo), (hi), (dlo), (dhi),           \
            (choices), (help)                                                                      \
    }
#define CMDBENCH_PARAM_BOOL_DECL(name, dflt, help)                                                 \
    CMDBENCH_PARAM_DECL_(name, CMDBENCH_PARAM_BOOL, #dflt, 0, 0, 0, 0, NULL, help)
#define CMDBENCH_PARAM_INT_DECL(name, dflt, lo, hi, help)                                          \
    CMDBENCH_PARAM_DECL_(name, CMDBENCH_PARAM_INT, #dflt, (lo), (hi), 0, 0, NULL, help)
#define CMDBENCH_PARAM_DOUBLE_DECL(name, dflt, lo, hi, help)                                       \
    CMDBENCH_PARAM_DECL_(name, CMDBENCH_PARAM_DOUBLE, #dflt, 0, 0, (lo), (hi), NULL, help)
#define CMDBENCH_PARAM_STRING_DECL(name, dflt, choices, help)                                      \
    CMDBENCH_PARAM_DECL_(name, CMDBENCH_PARAM_STRING, dflt, 0, 0, 0, 0, choices, help)
/* dflt is the list as scenario text: "[64, 4096]". */
#define CMDBENCH_PARAM_INT_LIST_DECL(name, dflt, lo, hi, help)                                     \
    CMDBENCH_PARAM_DECL_(name, CMDBENCH_PARAM_INT_LIST, dflt, (lo), (hi), 0, 0, NULL, help)

/* ------------------------------------------------------------ host types */

typedef struct cmdbench_ctx cmdbench_ctx;   /* one run on one peer; opaque */
typedef struct cmdbench_hist cmdbench_hist; /* log-linear histogram; opaque */
typedef struct cmdbench_row cmdbench_row;   /* one result row; opaque */

enum cmdbench_role { CMDBENCH_ROLE_CLIENT = 1, CMDBENCH_ROLE_SERVER = 2 };

enum cmdbench_log_level {
    CMDBENCH_LOG_ERROR = 0,
    CMDBENCH_LOG_WARN = 1,
    CMDBENCH_LOG_INFO = 2,
    CMDBENCH_LOG_DEBUG = 3
};

/* How a reporter should print a metric. */
enum cmdbench_unit {
    CMDBENCH_UNIT_PLAIN = 0, /* number as is */
    CMDBENCH_UNIT_BYTES = 1, /* byte count (binary k/m/g in tables) */
    CMDBENCH_UNIT_COUNT = 2, /* event count (decimal k/m/b in tables) */
    CMDBENCH_UNIT_SECONDS = 3,
    CMDBENCH_UNIT_USEC = 4,   /* microseconds */
    CMDBENCH_UNIT_GBPS = 5,   /* decimal gigabits per second */
    CMDBENCH_UNIT_PER_SEC = 6 /* events per second */
};

/* ABI 1.2: what a metric or histogram measures, so the host can compare,
 * chart and total a plugin's rows without knowing its metric names. Passed
 * to row_metric_ex / row_hist_ex. A metric reported without one (row_metric,
 * row_hist, or a plugin built for 1.0/1.1) is shown in the run's table but
 * not compared, unless it is one of the names the shipped plugins used
 * before 1.2 (docs/plugin-abi.md, "Metric meaning"). */
enum cmdbench_metric_kind {
    CMDBENCH_KIND_UNDECLARED = 0,
    CMDBENCH_KIND_LATENCY = 1,   /* time one operation took (histograms: ns) */
    CMDBENCH_KIND_BANDWIDTH = 2, /* data per second, in CMDBENCH_UNIT_GBPS */
    CMDBENCH_KIND_RATE = 3,      /* operations per second */
    CMDBENCH_KIND_COUNT = 4,     /* how many of something */
    CMDBENCH_KIND_BYTES = 5,     /* an amount of data */
    CMDBENCH_KIND_DURATION = 6,  /* a span of time that is not one operation's */
    CMDBENCH_KIND_OTHER = 7      /* anything else (a ratio, a CPU share) */
};

/* Which way is better when two variants are compared. NONE: the metric is
 * context (a message size, an iteration count) and is never compared. */
enum cmdbench_better {
    CMDBENCH_BETTER_NONE = 0,
    CMDBENCH_BETTER_LOWER = 1,
    CMDBENCH_BETTER_HIGHER = 2
};

enum cmdbench_metric_flags {
    /* LATENCY: the value is a round trip; compared as one-way (halved). */
    CMDBENCH_METRIC_ROUND_TRIP = 1u << 0,
    /* The unit of work is a connection: COUNT = connections set up (the
     * run's CPU per connection divides by the largest), RATE = connections
     * per second, DURATION = one connection step's time per connection. */
    CMDBENCH_METRIC_PER_CONNECTION = 1u << 1,
    /* BYTES: the row's message size (the x axis of size charts). */
    CMDBENCH_METRIC_MESSAGE_SIZE = 1u << 2,
    /* BYTES: what the row moved; summed into the run's CPU per GB. */
    CMDBENCH_METRIC_MOVED = 1u << 3,
    /* DURATION: the wall time the row's connections took; with a COUNT
     * PER_CONNECTION metric it gives the connection rate. */
    CMDBENCH_METRIC_ELAPSED = 1u << 4,
    /* In the run's table, not in comparisons (another metric of the row
     * already compares the same thing). */
    CMDBENCH_METRIC_DETAIL = 1u << 5,
    /* The row has no measurement of this (a step this transport does not
     * have): compared as a missing value, not as zero. */
    CMDBENCH_METRIC_UNMEASURED = 1u << 6,
    /* ABI 1.3. LATENCY: the value is one way already (half a measured round
     * trip, as perftest's send and write latency): the table says "1-way".
     * ROUND_TRIP on a DETAIL metric (never compared) makes it say "rtt". */
    CMDBENCH_METRIC_ONE_WAY = 1u << 7
};

/* ABI 1.2. Initialise with CMDBENCH_MEANING(kind, better, flags). */
struct cmdbench_metric_meaning {
    uint32_t struct_size;
    uint32_t kind;   /* enum cmdbench_metric_kind */
    uint32_t better; /* enum cmdbench_better */
    uint32_t flags;  /* enum cmdbench_metric_flags, or-ed */
};
#define CMDBENCH_MEANING(kind, better, flags)                                                      \
    { sizeof(struct cmdbench_metric_meaning), (kind), (better), (flags) }

/* The meanings most rows need, for `static const struct
 * cmdbench_metric_meaning m = CMDBENCH_MEANING_BANDWIDTH;`. */
#define CMDBENCH_MEANING_MESSAGE_SIZE                                                              \
    CMDBENCH_MEANING(CMDBENCH_KIND_BYTES, CMDBENCH_BETTER_NONE, CMDBENCH_METRIC_MESSAGE_SIZE)
#define CMDBENCH_MEANING_MOVED                                                                     \
    CMDBENCH_MEANING(CMDBENCH_KIND_BYTES, CMDBENCH_BETTER_NONE, CMDBENCH_METRIC_MOVED)
#define CMDBENCH_MEANING_COUNT CMDBENCH_MEANING(CMDBENCH_KIND_COUNT, CMDBENCH_BETTER_NONE, 0)
/* A row's elapsed time for fixed work: its bandwidth or rate compares it. */
#define CMDBENCH_MEANING_ELAPSED_DETAIL                                                            \
    CMDBENCH_MEANING(CMDBENCH_KIND_DURATION, CMDBENCH_BETTER_LOWER, CMDBENCH_METRIC_DETAIL)
#define CMDBENCH_MEANING_BANDWIDTH                                                                 \
    CMDBENCH_MEANING(CMDBENCH_KIND_BANDWIDTH, CMDBENCH_BETTER_HIGHER, 0)
#define CMDBENCH_MEANING_RATE CMDBENCH_MEANING(CMDBENCH_KIND_RATE, CMDBENCH_BETTER_HIGHER, 0)
#define CMDBENCH_MEANING_LATENCY CMDBENCH_MEANING(CMDBENCH_KIND_LATENCY, CMDBENCH_BETTER_LOWER, 0)
#define CMDBENCH_MEANING_ROUND_TRIP                                                                \
    CMDBENCH_MEANING(CMDBENCH_KIND_LATENCY, CMDBENCH_BETTER_LOWER, CMDBENCH_METRIC_ROUND_TRIP)

/* Return codes of host services and plugin hooks. */
enum cmdbench_status {
    CMDBENCH_OK = 0,
    CMDBENCH_ERR = -1, /* failed; the reason was given with set_error */
    CMDBENCH_ERR_TIMEOUT = -2,
    CMDBENCH_ERR_CANCELLED = -3,
    CMDBENCH_ERR_SKIP = -4 /* cannot run here (e.g. no device): skipped, not failed */
};

/* Services the host offers to a running test or transport. All take the ctx
 * of the run they serve, except the hot-path ones (now_ns, hist_record).
 * None lets a C++ exception out: a service that fails inside the host
 * returns CMDBENCH_ERR (or NULL) with the reason in set_error's place. */
struct cmdbench_host {
    uint32_t struct_size;
    uint16_t abi_major, abi_minor;

    /* Monotonic clock in nanoseconds: CLOCK_MONOTONIC, so a plugin's timed
     * loop may read that clock itself and skip the call. */
    uint64_t (*now_ns)(void);

    /* Logging. A message is one line without its newline. */
    void (*log)(cmdbench_ctx *ctx, int level, const char *msg);
    /* The one-line reason for a failure or skip; the last call wins. */
    void (*set_error)(cmdbench_ctx *ctx, const char *msg);

    /* Typed parameters of this run, for the test's and the transport's own
     * declared names. Return CMDBENCH_OK, or CMDBENCH_ERR for an unknown
     * name or the wrong type. Strings and lists stay valid for the run. */
    int (*param_bool)(cmdbench_ctx *ctx, const char *name, int *out);
    int (*param_int)(cmdbench_ctx *ctx, const char *name, int64_t *out);
    int (*param_double)(cmdbench_ctx *ctx, const char *name, double *out);
    int (*param_string)(cmdbench_ctx *ctx, const char *name, const char **out);
    int (*param_int_list)(cmdbench_ctx *ctx, const char *name, const int64_t **values,
                          size_t *count);

    /* Histograms of non-negative values (nanoseconds by convention), owned by
     * the host and freed after the run. hist_record is lock-free and cheap;
     * one histogram must be recorded into by one thread at a time. */
    cmdbench_hist *(*hist_create)(cmdbench_ctx *ctx);
    void (*hist_record)(cmdbench_hist *hist, uint64_t value);
    void (*hist_merge)(cmdbench_hist *into, const cmdbench_hist *from);

    /* Result rows. A row is reported once row_end is called; rows that ended
     * are kept even if the run later fails or is interrupted. */
    cmdbench_row *(*row_begin)(cmdbench_ctx *ctx, const char *name);
    void (*row_metric)(cmdbench_row *row, const char *key, double value, uint32_t unit);
    void (*row_hist)(cmdbench_row *row, const char *key,
                     const cmdbench_hist *hist); /* snapshot taken now */
    void (*row_end)(cmdbench_row *row);

    /* Progress for the terminal display: `done` of `total` units. */
    void (*progress)(cmdbench_ctx *ctx, uint64_t done, uint64_t total);
    /* Non-zero once the run should stop (interrupt, timeout, peer gone:
     * its control channel closed or it ended the run with a failure). */
    int (*cancelled)(cmdbench_ctx *ctx);
    /* Milliseconds left before the run's timeout (0 once it passed). Use it
     * to bound every blocking wait. */
    int64_t (*remaining_ms)(cmdbench_ctx *ctx);

    /* Control plane, between the peers of this run over the host's
     * out-of-band channel. Both return a cmdbench_status
     * (CMDBENCH_ERR_CANCELLED at once when the run is cancelled while they
     * wait).
     * barrier: returns once every peer reached the barrier with this name.
     * exchange: sends `len` bytes to the peer and receives the peer's
     * message into `buf` (capacity `cap`, received length in *got). A
     * message is at most 1 MiB less a few bytes of framing (the control
     * channel's frame limit); send bulk data over the data path. */
    int (*barrier)(cmdbench_ctx *ctx, const char *name);
    int (*exchange)(cmdbench_ctx *ctx, const void *data, uint32_t len, void *buf, uint32_t cap,
                    uint32_t *got);

    /* ABI 1.2. row_metric / row_hist with what the value means (NULL: as
     * row_metric / row_hist). A plugin built for 1.2 only loads into a 1.2
     * or newer host, so it may call these without checking struct_size. */
    void (*row_metric_ex)(cmdbench_row *row, const char *key, double value, uint32_t unit,
                          const struct cmdbench_metric_meaning *meaning);
    void (*row_hist_ex)(cmdbench_row *row, const char *key, const cmdbench_hist *hist,
                        const struct cmdbench_metric_meaning *meaning);

    /* ABI 1.2. A histogram from this peer to the other, e.g. the server's
     * latencies for the client's rows: one exchange over the control
     * channel, bounded by the run's timeout, of at most about 87 KiB
     * whatever the sample count (bucket counts and exact moments: the copy
     * reports the same count, min, max, mean, stddev and percentiles). The
     * calls pair up: a hist_send on one peer meets a hist_recv on the other,
     * in step with the peers' other barrier/exchange calls. hist_recv puts a
     * new histogram in *out, owned by the host like hist_create's. Both
     * return a cmdbench_status; a histogram that is malformed, or a peer
     * that sent or expected something else, is CMDBENCH_ERR with the reason. */
    int (*hist_send)(cmdbench_ctx *ctx, const cmdbench_hist *hist);
    int (*hist_recv)(cmdbench_ctx *ctx, cmdbench_hist **out);

    /* ABI 1.3. An effective setting of this run that its parameters do not
     * show (a value the test chose or the device capped: "inline_size",
     * "256"), printed in the run's header and kept in the results' run
     * object, in the order first set; setting a key again replaces its
     * value. `key`: 1-64 characters [a-z0-9_]; `value`: at most 256 bytes
     * of text; at most 64 keys a run. Recorded on the side that calls it:
     * the client's settings reach the results, the server's its own table
     * (docs/plugin-abi.md, "Run settings"). A plugin built for 1.3 only
     * loads into a 1.3 or newer host, so it may call this without checking
     * struct_size. Returns CMDBENCH_OK, or CMDBENCH_ERR with the reason. */
    int (*run_setting)(cmdbench_ctx *ctx, const char *key, const char *value);
};

/* ------------------------------------------------------------ transports */

enum cmdbench_transport_flags {
    CMDBENCH_TRANSPORT_NEEDS_RDMA = 1u << 0 /* needs an RDMA device */
};

/* When the transport's `configure` hook is called on a socket. */
enum cmdbench_sock_stage {
    CMDBENCH_SOCK_CLIENT = 1,   /* new client socket, before bind/connect */
    CMDBENCH_SOCK_LISTENER = 2, /* listening socket, before each accept */
    CMDBENCH_SOCK_ACCEPTED = 3  /* socket returned by accept */
};

/* Hints a test passes to `configure` about what the socket is for. */
enum cmdbench_sock_hint {
    CMDBENCH_HINT_NONE = 0,
    CMDBENCH_HINT_LATENCY = 1,  /* small messages, round trips */
    CMDBENCH_HINT_BANDWIDTH = 2 /* large messages, streaming */
};

/* ABI 1.2. Data-path hooks that get a pointer of the transport's own back,
 * so per-socket state needs no table in the plugin. A socket's pointer is
 * what socket() or accept() stored in *sock_ctx (NULL if they did not set
 * it); the host keeps it beside the handle and passes it to every later
 * hook on that socket until close(), which is its last use (free it there).
 * `transport_ctx` goes to socket() and poll(). Cost per call: one indexed
 * load in the host (no search, no lock), and none at all for a hook left
 * NULL here, which falls back to the plain hook of the same name (or, if
 * that is NULL too, to libc). Each handle must be unique in the process
 * while it is open (file descriptors are). Initialise with designated
 * initialisers; struct_size = sizeof(struct cmdbench_sock_ops).
 * Retiring: kept for every 1.x ABI, removed in 2.0. New transports set the
 * plain hooks of struct cmdbench_transport and keep per-socket state in a
 * table of their own indexed by the handle (docs/plugin-abi.md). */
struct cmdbench_sock_ops {
    uint32_t struct_size;
    void *transport_ctx;
    int (*socket)(void *transport_ctx, int domain, int type, int protocol, void **sock_ctx);
    /* `sock_ctx` is the listener's; the accepted socket's goes to *accepted_ctx. */
    int (*accept)(void *sock_ctx, int sock, struct sockaddr *addr, socklen_t *addrlen,
                  void **accepted_ctx);
    int (*bind)(void *sock_ctx, int sock, const struct sockaddr *addr, socklen_t addrlen);
    int (*listen)(void *sock_ctx, int sock, int backlog);
    int (*connect)(void *sock_ctx, int sock, const struct sockaddr *addr, socklen_t addrlen);
    ssize_t (*send)(void *sock_ctx, int sock, const void *buf, size_t len, int flags);
    ssize_t (*recv)(void *sock_ctx, int sock, void *buf, size_t len, int flags);
    /* sock_ctxs[i] is fds[i].fd's pointer (NULL for a negative fd). */
    int (*poll)(void *transport_ctx, void *const *sock_ctxs, struct pollfd *fds, nfds_t nfds,
                int timeout_ms);
    int (*setsockopt)(void *sock_ctx, int sock, int level, int name, const void *val,
                      socklen_t len);
    int (*getsockopt)(void *sock_ctx, int sock, int level, int name, void *val, socklen_t *len);
    int (*fcntl)(void *sock_ctx, int sock, int cmd, int arg);
    int (*getsockname)(void *sock_ctx, int sock, struct sockaddr *addr, socklen_t *addrlen);
    int (*shutdown)(void *sock_ctx, int sock, int how);
    int (*close)(void *sock_ctx, int sock);
};

/* A stream transport: BSD-socket-shaped calls on integer handles, with
 * BSD return conventions (-1 and errno on failure). Handles are the
 * transport's own; never pass them to another transport or to libc.
 *
 * Data-path hooks (socket ... close): a plugin built for ABI 1.0/1.1 must
 * set all fourteen. From ABI 1.2 any of them may be NULL, meaning the libc
 * call on the handle as a file descriptor (socket() and accept() add
 * SOCK_CLOEXEC, send() adds MSG_NOSIGNAL, fcntl() takes F_GETFL/F_SETFL
 * only): an fd-based transport sets just the hooks it changes. Tests always
 * see all fourteen set. */
struct cmdbench_transport {
    uint32_t struct_size;
    const char *name;        /* scenario `transport = "..."` */
    const char *description; /* one line */
    uint32_t flags;          /* enum cmdbench_transport_flags */
    uint32_t param_count;
    const struct cmdbench_param *params;

    /* Called once per run before any socket is made. Return CMDBENCH_OK, or
     * CMDBENCH_ERR_SKIP with set_error (e.g. "no RDMA device") when this
     * machine cannot run the transport. May be NULL. */
    int (*probe)(cmdbench_ctx *ctx, const struct cmdbench_host *host);
    /* Apply the transport's parameters (buffers, nodelay, ...) to a socket.
     * Return 0, or -1 with set_error. May be NULL. */
    int (*configure)(cmdbench_ctx *ctx, const struct cmdbench_host *host, int sock, uint32_t stage,
                     uint32_t hint);
    /* Resolve host:port to the first usable address for this transport.
     * `passive` for a local (bind) address; host NULL means any address.
     * Return 0, or -1 with set_error. NULL = the host uses getaddrinfo. */
    int (*resolve)(cmdbench_ctx *ctx, const struct cmdbench_host *host, const char *node,
                   const char *service, int passive, struct sockaddr_storage *addr,
                   socklen_t *addrlen);

    int (*socket)(int domain, int type, int protocol);
    int (*bind)(int sock, const struct sockaddr *addr, socklen_t addrlen);
    int (*listen)(int sock, int backlog);
    int (*accept)(int sock, struct sockaddr *addr, socklen_t *addrlen);
    int (*connect)(int sock, const struct sockaddr *addr, socklen_t addrlen);
    ssize_t (*send)(int sock, const void *buf, size_t len, int flags);
    ssize_t (*recv)(int sock, void *buf, size_t len, int flags);
    int (*poll)(struct pollfd *fds, nfds_t nfds, int timeout_ms);
    int (*setsockopt)(int sock, int level, int name, const void *val, socklen_t len);
    int (*getsockopt)(int sock, int level, int name, void *val, socklen_t *len);
    int (*fcntl)(int sock, int cmd, int arg); /* F_GETFL / F_SETFL */
    int (*getsockname)(int sock, struct sockaddr *addr, socklen_t *addrlen);
    int (*shutdown)(int sock, int how);
    int (*close)(int sock);

    /* ABI 1.1. Where a run with both sides on this machine should meet when
     * 127.0.0.1 will not do (rsockets need an address of an RDMA device):
     * write a numeric address, NUL-terminated, into buf (capacity cap) and
     * return 0; return -1 when any address will do. May be NULL. */
    int (*local_node)(cmdbench_ctx *ctx, const struct cmdbench_host *host, char *buf, size_t cap);

    /* ABI 1.2, retiring (removed in 2.0). The data-path hooks that take the
     * transport's pointers (struct cmdbench_sock_ops above); NULL = none.
     * Tests keep calling the plain hooks above; the host routes those to
     * these. */
    const struct cmdbench_sock_ops *sock_ops;
};

/* ----------------------------------------------------------------- tests */

enum cmdbench_test_flags {
    CMDBENCH_TEST_USES_TRANSPORT = 1u << 0 /* runs over a stream transport */
};

/* What the host tells a test about the run it is to perform. */
struct cmdbench_run_env {
    uint32_t struct_size;
    const struct cmdbench_host *host;
    cmdbench_ctx *ctx;
    uint32_t role; /* enum cmdbench_role */
    /* The transport chosen in the scenario, or NULL for a test without the
     * USES_TRANSPORT flag. */
    const struct cmdbench_transport *transport;
    /* Client: the server's host name or address. Server: the address to
     * bind: the local address the client's control connection reached
     * (so both sides use one address family), NULL for any. Data ports are
     * the test's business (announce an ephemeral one with exchange). */
    const char *peer_host;
};

struct cmdbench_test {
    uint32_t struct_size;
    const char *name;        /* scenario `test = "..."` */
    const char *description; /* one line */
    uint32_t flags;          /* enum cmdbench_test_flags */
    uint32_t param_count;
    const struct cmdbench_param *params;

    /* Run one role of the test. Blocking is fine; bound every wait by
     * host->remaining_ms and check host->cancelled in loops. Return a
     * cmdbench_status; on failure call set_error first. Called from one host
     * thread; the test may start threads of its own and must join them
     * before returning. */
    int (*run)(const struct cmdbench_run_env *env);
};

/* ---------------------------------------------------------------- plugin */

struct cmdbench_plugin {
    uint32_t struct_size;
    uint16_t abi_major; /* CMDBENCH_ABI_MAJOR the plugin was built with */
    uint16_t abi_minor; /* CMDBENCH_ABI_MINOR the plugin was built with */
    const char *name;
    const char *version;
    const char *description;
    uint32_t transport_count;
    const struct cmdbench_transport *const *transports;
    uint32_t test_count;
    const struct cmdbench_test *const *tests;
};

/* Declare the entry point: returns the plugin's static descriptor. */
#if defined(__GNUC__)
#define CMDBENCH_EXPORT __attribute__((visibility("default")))
#else
#define CMDBENCH_EXPORT
#endif

#ifdef __cplusplus
#define CMDBENCH_PLUGIN_ENTRY                                                                      \
    extern "C" CMDBENCH_EXPORT const struct cmdbench_plugin *cmdbench_plugin_entry(void)
#else
#define CMDBENCH_PLUGIN_ENTRY                                                                      \
    CMDBENCH_EXPORT const struct cmdbench_plugin *cmdbench_plugin_entry(void)
#endif

typedef const struct cmdbench_plugin *(*cmdbench_plugin_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* CMDBENCH_PLUGIN_H */

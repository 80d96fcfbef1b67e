/*
 * An out-of-tree-style test plugin: test `burst` reports metrics whose names
 * cmdbench does not know ("bursts/s", "burst", "stall", "copied", "payload")
 * and says what they mean through ABI 1.2, so the host compares, charts and
 * totals them. Built against the installed header alone.
 *
 * Each burst copies `payload` bytes `spin` times; a bigger `spin` makes a
 * slower variant, so comparisons have a known better and worse side.
 *
 * Test `burst-server` runs the bursts on the server and ships its histogram
 * to the client (hist_send / hist_recv).
 */
#include <cmdbench/plugin.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const struct cmdbench_param params[] = {
    CMDBENCH_PARAM_INT_DECL("spin", 4, 1, 100000, "copies per burst"),
    CMDBENCH_PARAM_INT_DECL("bursts", 2000, 1, 10000000, "bursts per row"),
};

static const struct cmdbench_metric_meaning kPayload =
    CMDBENCH_MEANING(CMDBENCH_KIND_BYTES, CMDBENCH_BETTER_NONE, CMDBENCH_METRIC_MESSAGE_SIZE);
static const struct cmdbench_metric_meaning kRate =
    CMDBENCH_MEANING(CMDBENCH_KIND_RATE, CMDBENCH_BETTER_HIGHER, 0);
static const struct cmdbench_metric_meaning kBurst =
    CMDBENCH_MEANING(CMDBENCH_KIND_LATENCY, CMDBENCH_BETTER_LOWER, 0);
static const struct cmdbench_metric_meaning kStall =
    CMDBENCH_MEANING(CMDBENCH_KIND_DURATION, CMDBENCH_BETTER_LOWER, 0);
static const struct cmdbench_metric_meaning kCount = CMDBENCH_MEANING_COUNT;
static const struct cmdbench_metric_meaning kCopied =
    CMDBENCH_MEANING(CMDBENCH_KIND_BYTES, CMDBENCH_BETTER_NONE, CMDBENCH_METRIC_MOVED);

/* Keeps the copies from being optimised away. */
static volatile uint8_t sink;

static int burst_row(const struct cmdbench_run_env *env, const char *name, size_t payload,
                     int64_t spin, int64_t bursts) {
    const struct cmdbench_host *h = env->host;
    uint8_t *from = calloc(1, payload), *to = calloc(1, payload);
    if (!from || !to) {
        free(from);
        free(to);
        h->set_error(env->ctx, "burst: out of memory");
        return CMDBENCH_ERR;
    }
    cmdbench_hist *times = h->hist_create(env->ctx);
    uint64_t worst = 0;
    const uint64_t start = h->now_ns();
    for (int64_t b = 0; b < bursts; ++b) {
        if ((b & 63) == 0 && h->cancelled(env->ctx)) {
            free(from);
            free(to);
            return CMDBENCH_ERR_CANCELLED;
        }
        const uint64_t t0 = h->now_ns();
        for (int64_t i = 0; i < spin; ++i) {
            from[(size_t)i % payload] = (uint8_t)i;
            memcpy(to, from, payload);
            sink = to[(size_t)i % payload];
        }
        const uint64_t took = h->now_ns() - t0;
        h->hist_record(times, took);
        if (took > worst) worst = took;
    }
    const double seconds = (double)(h->now_ns() - start + 1) / 1e9;
    free(from);
    free(to);

    cmdbench_row *row = h->row_begin(env->ctx, name);
    h->row_metric_ex(row, "payload", (double)payload, CMDBENCH_UNIT_BYTES, &kPayload);
    h->row_metric_ex(row, "bursts/s", (double)bursts / seconds, CMDBENCH_UNIT_PER_SEC, &kRate);
    h->row_metric_ex(row, "stall", (double)worst / 1000.0, CMDBENCH_UNIT_USEC, &kStall);
    h->row_metric_ex(row, "copied", (double)payload * (double)spin * (double)bursts,
                     CMDBENCH_UNIT_BYTES, &kCopied);
    /* No meaning: shown in the run's table, never compared. */
    h->row_metric(row, "spin", (double)spin, CMDBENCH_UNIT_COUNT);
    h->row_hist_ex(row, "burst", times, &kBurst);
    h->row_end(row);
    return CMDBENCH_OK;
}

static int run_burst(const struct cmdbench_run_env *env) {
    const struct cmdbench_host *h = env->host;
    int64_t spin = 0, bursts = 0;
    if (h->param_int(env->ctx, "spin", &spin) != CMDBENCH_OK ||
        h->param_int(env->ctx, "bursts", &bursts) != CMDBENCH_OK) {
        h->set_error(env->ctx, "burst: parameters unavailable");
        return CMDBENCH_ERR;
    }
    /* Both sides meet once, so the run has a real peer. */
    int rc = h->barrier(env->ctx, "burst-start");
    if (rc != CMDBENCH_OK || env->role != CMDBENCH_ROLE_CLIENT) return rc;
    rc = burst_row(env, "small", 256, spin, bursts);
    if (rc == CMDBENCH_OK) rc = burst_row(env, "large", 16384, spin, bursts);
    return rc;
}

/* The ramp burst-server ships next to its timings: values that are each the
 * middle of their histogram bucket, from 257 to about 2^48, so every statistic of
 * the client's copy is exact and known (tests/e2e/test_hist_shipping.cpp
 * computes them from the same formula). */
static uint64_t ramp_value(int64_t i) {
    const unsigned shift = 1u + (unsigned)((i * 7) % 40);
    const uint64_t sub = 128u + (uint64_t)((i * 13) % 128);
    return (sub << shift) + (UINT64_C(1) << (shift - 1));
}

/* Test `burst-server`: the server times the bursts and ships the histogram
 * to the client (ABI 1.2 hist_send / hist_recv), which reports it as its
 * row "server", as a test reports a server-side latency. */
static int run_burst_server(const struct cmdbench_run_env *env) {
    const struct cmdbench_host *h = env->host;
    int64_t spin = 0, bursts = 0;
    if (h->param_int(env->ctx, "spin", &spin) != CMDBENCH_OK ||
        h->param_int(env->ctx, "bursts", &bursts) != CMDBENCH_OK) {
        h->set_error(env->ctx, "burst-server: parameters unavailable");
        return CMDBENCH_ERR;
    }
    int rc = h->barrier(env->ctx, "burst-server-start");
    if (rc != CMDBENCH_OK) return rc;
    if (env->role == CMDBENCH_ROLE_SERVER) {
        uint8_t from[256] = {0}, to[256];
        cmdbench_hist *times = h->hist_create(env->ctx);
        cmdbench_hist *ramp = h->hist_create(env->ctx);
        for (int64_t b = 0; b < bursts; ++b) {
            const uint64_t t0 = h->now_ns();
            for (int64_t i = 0; i < spin; ++i) {
                from[i & 255] = (uint8_t)i;
                memcpy(to, from, sizeof to);
                sink = to[i & 255];
            }
            h->hist_record(times, h->now_ns() - t0);
            h->hist_record(ramp, ramp_value(b));
        }
        rc = h->hist_send(env->ctx, times);
        return rc == CMDBENCH_OK ? h->hist_send(env->ctx, ramp) : rc;
    }
    cmdbench_hist *times = NULL, *ramp = NULL;
    rc = h->hist_recv(env->ctx, &times);
    if (rc == CMDBENCH_OK) rc = h->hist_recv(env->ctx, &ramp);
    if (rc != CMDBENCH_OK) return rc; /* the host said why */
    cmdbench_row *row = h->row_begin(env->ctx, "server");
    h->row_metric_ex(row, "bursts", (double)bursts, CMDBENCH_UNIT_COUNT, &kCount);
    h->row_hist_ex(row, "burst", times, &kBurst);
    h->row_hist(row, "ramp", ramp);
    h->row_end(row);
    return CMDBENCH_OK;
}

static const struct cmdbench_test burst_test = {
    sizeof(struct cmdbench_test),
    "burst",
    "copy bursts, with metrics of its own",
    0,
    2,
    params,
    run_burst,
};

static const struct cmdbench_test burst_server_test = {
    sizeof(struct cmdbench_test),
    "burst-server",
    "copy bursts on the server; the client reports the server's histogram",
    0,
    2,
    params,
    run_burst_server,
};

static const struct cmdbench_test *const tests[] = {&burst_test, &burst_server_test};

static const struct cmdbench_plugin plugin = {
    sizeof(struct cmdbench_plugin),
    CMDBENCH_ABI_MAJOR,
    CMDBENCH_ABI_MINOR,
    "burst",
    "0.1.0",
    "a third-party test with its own metric names",
    0,
    NULL,
    2,
    tests,
};

CMDBENCH_PLUGIN_ENTRY {
    return &plugin;
}

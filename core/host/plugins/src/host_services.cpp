#include "cmdbench/host/plugins/host_services.hpp"

#include "cmdbench/base/expected.hpp"
#include "cmdbench/host/machine/cpu_list.hpp"
#include "cmdbench/report/old_metric_names.hpp"
#include "host_hist_exchange.hpp"
#include "host_run_setting.hpp"
#include "service_guard.hpp"

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <iterator>
#include <sched.h>
#include <set>

// A row under construction; its metrics become a cmdbench::Row at row_end.
struct cmdbench_row {
    cmdbench_ctx *ctx;
    cmdbench::Row row;
};
// cmdbench_hist is a cmdbench::Histogram; the C handle is just its address.
struct cmdbench_hist {};

cmdbench_ctx::~cmdbench_ctx() {
    for (auto *r : open_rows)
        delete r;
}

namespace cmdbench {
namespace {

Histogram *as_hist(cmdbench_hist *h) {
    return reinterpret_cast<Histogram *>(h);
}
const Histogram *as_hist(const cmdbench_hist *h) {
    return reinterpret_cast<const Histogram *>(h);
}

uint64_t now_ns() {
    return monotonic_ns();
}

const char *const kLevelNames[] = {"error", "warning", "info", "debug"};

void log(cmdbench_ctx *ctx, int level, const char *msg) {
    const auto &names = kLevelNames;
    if (level > plugin_log_level()) return;
    const char *name = (level >= 0 && level <= 3) ? names[level] : "log";
    std::string prefix = ctx ? ctx->log_prefix : std::string();
    std::fprintf(stderr, "%s%s: %s\n", prefix.c_str(), name, msg ? msg : "");
}

} // namespace

int plugin_log_level() {
    if (const char *want = std::getenv("CMDBENCH_LOG_LEVEL"))
        for (int level = CMDBENCH_LOG_ERROR; level <= CMDBENCH_LOG_DEBUG; ++level)
            if (std::strcmp(want, kLevelNames[level]) == 0) return level;
    return std::getenv("CMDBENCH_DEBUG") ? CMDBENCH_LOG_DEBUG : CMDBENCH_LOG_INFO;
}

void quiet_plugin_info() {
    setenv("CMDBENCH_LOG_LEVEL", kLevelNames[CMDBENCH_LOG_WARN], 0);
}

namespace {

void set_error(cmdbench_ctx *ctx, const char *msg) {
    std::lock_guard<std::mutex> lock(ctx->mu);
    ctx->error = msg ? msg : "";
}

template <class T> const T *lookup(cmdbench_ctx *ctx, const char *name) {
    if (!ctx || !name) return nullptr;
    auto it = ctx->params.find(name);
    if (it == ctx->params.end()) return nullptr;
    return std::get_if<T>(&it->second);
}

int param_bool(cmdbench_ctx *ctx, const char *name, int *out) {
    auto *v = lookup<bool>(ctx, name);
    if (!v || !out) return CMDBENCH_ERR;
    *out = *v ? 1 : 0;
    return CMDBENCH_OK;
}

int param_int(cmdbench_ctx *ctx, const char *name, int64_t *out) {
    auto *v = lookup<int64_t>(ctx, name);
    if (!v || !out) return CMDBENCH_ERR;
    *out = *v;
    return CMDBENCH_OK;
}

int param_double(cmdbench_ctx *ctx, const char *name, double *out) {
    if (!out) return CMDBENCH_ERR;
    if (auto *v = lookup<double>(ctx, name)) {
        *out = *v;
        return CMDBENCH_OK;
    }
    return CMDBENCH_ERR;
}

int param_string(cmdbench_ctx *ctx, const char *name, const char **out) {
    auto *v = lookup<std::string>(ctx, name);
    if (!v || !out) return CMDBENCH_ERR;
    *out = v->c_str();
    return CMDBENCH_OK;
}

int param_int_list(cmdbench_ctx *ctx, const char *name, const int64_t **values, size_t *count) {
    auto *v = lookup<std::vector<int64_t>>(ctx, name);
    if (!v || !values || !count) return CMDBENCH_ERR;
    *values = v->data();
    *count = v->size();
    return CMDBENCH_OK;
}

cmdbench_hist *hist_create(cmdbench_ctx *ctx) {
    std::lock_guard<std::mutex> lock(ctx->mu);
    ctx->hists.emplace_back(); // deque: addresses stay valid
    return reinterpret_cast<cmdbench_hist *>(&ctx->hists.back());
}

void hist_record(cmdbench_hist *h, uint64_t value) {
    as_hist(h)->record(value);
}

void hist_merge(cmdbench_hist *into, const cmdbench_hist *from) {
    as_hist(into)->merge(*as_hist(from));
}

cmdbench_row *row_begin(cmdbench_ctx *ctx, const char *name) {
    note_cpu(*ctx);
    auto *r = new cmdbench_row{ctx, Row{}};
    r->row.name = name ? name : "";
    std::lock_guard<std::mutex> lock(ctx->mu);
    ctx->open_rows.push_back(r);
    return r;
}

// Fine when a declared meaning is one plugin.h defines (or there is none);
// else why not. A plugin that loaded was built for this ABI major and at
// most this minor, so a value outside these enums is a bug, not news.
Status check_meaning(const cmdbench_metric_meaning *m) {
    if (!m) return {};
    if (m->struct_size < sizeof(cmdbench_metric_meaning))
        return unexpected("its meaning with struct_size " + std::to_string(m->struct_size) +
                          ", smaller than struct cmdbench_metric_meaning (" +
                          std::to_string(sizeof(cmdbench_metric_meaning)) +
                          " bytes; initialise it with CMDBENCH_MEANING)");
    auto hex = [](uint32_t v) {
        char text[16];
        std::snprintf(text, sizeof text, "0x%x", v);
        return std::string(text);
    };
    auto undefined = [](const std::string &what, const std::string &values) {
        return unexpected(what + ", which plugin.h does not define (" + values + ")");
    };
    if (m->kind > CMDBENCH_KIND_OTHER)
        return undefined("kind " + std::to_string(m->kind),
                         "enum cmdbench_metric_kind: 0 to " + std::to_string(CMDBENCH_KIND_OTHER));
    if (m->better > CMDBENCH_BETTER_HIGHER)
        return undefined("better " + std::to_string(m->better),
                         "enum cmdbench_better: 0 to " + std::to_string(CMDBENCH_BETTER_HIGHER));
    constexpr uint32_t kKnownFlags = (uint32_t(CMDBENCH_METRIC_ONE_WAY) << 1) - 1;
    if (m->flags & ~kKnownFlags)
        return undefined("flags " + hex(m->flags),
                         "enum cmdbench_metric_flags: " + hex(kKnownFlags));
    return {};
}

// A declared meaning as the report reads it; one plugin.h does not define is
// noted for the run's failure and kept as undeclared.
MetricMeaning meaning_from(cmdbench_row *row, const char *what, const char *key,
                           const cmdbench_metric_meaning *m) {
    if (const Status defined = check_meaning(m); !defined) {
        std::lock_guard<std::mutex> lock(row->ctx->mu);
        if (row->ctx->invalid_meaning.empty())
            row->ctx->invalid_meaning = std::string(what) + " '" + (key ? key : "") + "' of row '" +
                                        row->row.name + "' declares " + defined.error();
        return {};
    }
    MetricMeaning out;
    if (m) {
        out.kind = m->kind;
        out.better = m->better;
        out.flags = m->flags;
    }
    return out;
}

void row_metric_ex(cmdbench_row *row, const char *key, double value, uint32_t unit,
                   const cmdbench_metric_meaning *meaning) {
    row->row.metrics.push_back(
        Metric{key ? key : "", value, unit, meaning_from(row, "metric", key, meaning)});
}

void row_hist_ex(cmdbench_row *row, const char *key, const cmdbench_hist *hist,
                 const cmdbench_metric_meaning *meaning) {
    row->row.hists.push_back(HistMetric{key ? key : "", as_hist(hist)->summary(),
                                        meaning_from(row, "histogram", key, meaning)});
}

void row_metric(cmdbench_row *row, const char *key, double value, uint32_t unit) {
    row_metric_ex(row, key, value, unit, nullptr);
}

void row_hist(cmdbench_row *row, const char *key, const cmdbench_hist *hist) {
    row_hist_ex(row, key, hist, nullptr);
}

void row_end(cmdbench_row *row) {
    cmdbench_ctx *ctx = row->ctx;
    note_cpu(*ctx);
    Row done = std::move(row->row);
    // What a 1.0/1.1 plugin's metrics (or any reported without a meaning)
    // mean, by their names.
    give_old_name_meanings(done);
    {
        std::lock_guard<std::mutex> lock(ctx->mu);
        for (auto it = ctx->open_rows.begin(); it != ctx->open_rows.end(); ++it)
            if (*it == row) {
                ctx->open_rows.erase(it);
                break;
            }
        ctx->rows.push_back(done);
    }
    delete row;
    if (ctx->on_row) ctx->on_row(done);
}

void progress(cmdbench_ctx *ctx, uint64_t done, uint64_t total) {
    note_cpu(*ctx);
    if (ctx->on_progress) ctx->on_progress(done, total);
}

int cancelled(cmdbench_ctx *ctx) {
    note_cpu(*ctx);
    if (ctx->cancelled.load(std::memory_order_relaxed)) return 1;
    if (ctx->interrupted && ctx->interrupted->load(std::memory_order_relaxed)) return 1;
    if (ctx->deadline_ns && monotonic_ns() >= ctx->deadline_ns) return 1;
    return 0;
}

int64_t remaining(cmdbench_ctx *ctx) {
    note_cpu(*ctx);
    return remaining_ms(*ctx);
}

int barrier(cmdbench_ctx *ctx, const char *name) {
    note_cpu(*ctx);
    if (!ctx->peer) return CMDBENCH_OK; // a run without peers is its own barrier
    return ctx->peer->barrier(ctx, name ? name : "");
}

int exchange(cmdbench_ctx *ctx, const void *data, uint32_t len, void *buf, uint32_t cap,
             uint32_t *got) {
    note_cpu(*ctx);
    if (!ctx->peer) {
        set_error(ctx, "exchange: this run has no peer");
        return CMDBENCH_ERR;
    }
    return ctx->peer->exchange(ctx, data, len, buf, cap, got);
}

// Every service but the two hot-path ones goes through Guarded.
constexpr char log_name[] = "log";
constexpr char set_error_name[] = "set_error";
constexpr char param_bool_name[] = "param_bool";
constexpr char param_int_name[] = "param_int";
constexpr char param_double_name[] = "param_double";
constexpr char param_string_name[] = "param_string";
constexpr char param_int_list_name[] = "param_int_list";
constexpr char hist_create_name[] = "hist_create";
constexpr char hist_merge_name[] = "hist_merge";
constexpr char row_begin_name[] = "row_begin";
constexpr char row_metric_name[] = "row_metric";
constexpr char row_hist_name[] = "row_hist";
constexpr char row_end_name[] = "row_end";
constexpr char progress_name[] = "progress";
constexpr char cancelled_name[] = "cancelled";
constexpr char remaining_name[] = "remaining_ms";
constexpr char barrier_name[] = "barrier";
constexpr char exchange_name[] = "exchange";
constexpr char row_metric_ex_name[] = "row_metric_ex";
constexpr char row_hist_ex_name[] = "row_hist_ex";
constexpr char hist_send_name[] = "hist_send";
constexpr char hist_recv_name[] = "hist_recv";
constexpr char run_setting_name[] = "run_setting";
template <class Sig, Sig *Fn, const char *Name>
constexpr auto guarded = &Guarded<Sig, Fn, Name>::call;

const cmdbench_host kHost = {
    sizeof(cmdbench_host),
    CMDBENCH_ABI_MAJOR,
    CMDBENCH_ABI_MINOR,
    now_ns, // hot path, cannot throw
    guarded<decltype(log), log, log_name>,
    guarded<decltype(set_error), set_error, set_error_name>,
    guarded<decltype(param_bool), param_bool, param_bool_name>,
    guarded<decltype(param_int), param_int, param_int_name>,
    guarded<decltype(param_double), param_double, param_double_name>,
    guarded<decltype(param_string), param_string, param_string_name>,
    guarded<decltype(param_int_list), param_int_list, param_int_list_name>,
    guarded<decltype(hist_create), hist_create, hist_create_name>,
    hist_record, // hot path, cannot throw
    guarded<decltype(hist_merge), hist_merge, hist_merge_name>,
    guarded<decltype(row_begin), row_begin, row_begin_name>,
    guarded<decltype(row_metric), row_metric, row_metric_name>,
    guarded<decltype(row_hist), row_hist, row_hist_name>,
    guarded<decltype(row_end), row_end, row_end_name>,
    guarded<decltype(progress), progress, progress_name>,
    guarded<decltype(cancelled), cancelled, cancelled_name>,
    guarded<decltype(remaining), remaining, remaining_name>,
    guarded<decltype(barrier), barrier, barrier_name>,
    guarded<decltype(exchange), exchange, exchange_name>,
    guarded<decltype(row_metric_ex), row_metric_ex, row_metric_ex_name>,
    guarded<decltype(row_hist_ex), row_hist_ex, row_hist_ex_name>,
    guarded<decltype(hist_send), hist_send, hist_send_name>,
    guarded<decltype(hist_recv), hist_recv, hist_recv_name>,
    guarded<decltype(run_setting), run_setting, run_setting_name>,
};

} // namespace

void note_cpu(cmdbench_ctx &ctx) {
    const int cpu = sched_getcpu();
    if (cpu < 0 || cpu >= int(64 * std::size(ctx.cpus_seen))) return;
    std::atomic<uint64_t> &word = ctx.cpus_seen[cpu / 64];
    const uint64_t bit = uint64_t(1) << (cpu % 64);
    if (!(word.load(std::memory_order_relaxed) & bit))
        word.fetch_or(bit, std::memory_order_relaxed);
}

std::string cpus_seen_text(const cmdbench_ctx &ctx) {
    std::set<unsigned> cpus;
    for (unsigned w = 0; w < std::size(ctx.cpus_seen); ++w) {
        const uint64_t bits = ctx.cpus_seen[w].load(std::memory_order_relaxed);
        for (unsigned b = 0; b < 64; ++b)
            if (bits >> b & 1) cpus.insert(w * 64 + b);
    }
    return cpus.empty() ? std::string(kUnknown) : cpu_list_text(cpus);
}

cmdbench_ctx *ctx_of(cmdbench_row *row) {
    return row ? row->ctx : nullptr;
}

void note_service_failure(cmdbench_ctx *ctx, const char *service, const char *why) noexcept {
    try {
        const std::string msg = std::string("host service ") + service + " failed: " + why;
        if (!ctx) {
            std::fprintf(stderr, "cmdbench: %s\n", msg.c_str());
            return;
        }
        std::lock_guard<std::mutex> lock(ctx->mu);
        ctx->error = msg;
    } catch (...) { // out of memory for the message itself: the failure value says enough
    }
}

uint64_t monotonic_ns() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

int64_t remaining_ms(const cmdbench_ctx &ctx) {
    if (!ctx.deadline_ns) return INT64_MAX / 2;
    uint64_t now = monotonic_ns();
    return now >= ctx.deadline_ns ? 0 : int64_t((ctx.deadline_ns - now) / 1000000);
}

void cancel_run(cmdbench_ctx &ctx) {
    ctx.cancelled = true;
    ctx.stop_event.set();
}

void add_stop_events(const cmdbench_ctx &ctx, std::vector<pollfd> &fds) {
    fds.push_back({ctx.stop_event.fd(), POLLIN, 0});
    if (ctx.interrupted) fds.push_back({interrupt_event_fd(), POLLIN, 0});
}

std::shared_ptr<cmdbench_ctx> make_run_ctx(RunInputs in) {
    auto ctx = std::make_shared<cmdbench_ctx>();
    ctx->params = std::move(in.params);
    ctx->interrupted = in.interrupted;
    ctx->log_prefix = std::move(in.log_prefix);
    ctx->on_row = std::move(in.on_row);
    ctx->on_progress = std::move(in.on_progress);
    return ctx;
}

const cmdbench_host *host_services() {
    return &kHost;
}

} // namespace cmdbench

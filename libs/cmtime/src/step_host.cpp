// Result rows and report exchange for the step tests (see step_host.hpp).
#include "cmdbench/cmtime/step_host.hpp"

#include <algorithm>
#include <cmdbench/plugin-support/byte_order.hpp>
#include <cmdbench/plugin-support/peer_protocol.hpp>
#include <cmdbench/plugin-support/result_rows.hpp>
#include <string>

namespace cmdbench::cmtime {
namespace {

// Well below the control channel's 1 MiB frame limit.
constexpr size_t kChunk = 512 * 1024;

// What a step row's metrics mean (ABI 1.2): the step's time per connection
// is compared; the client's "full connect" total over its connections gives
// the connection rate (it runs from the first socket or ID created to the
// last connection established; its us/conn is always 0, as cmtime zeroes
// the sum of overlapping intervals). The server's starts at its first
// accept, missing one setup, so it is not compared.
constexpr cmdbench_metric_meaning kStepDetail =
    CMDBENCH_MEANING(CMDBENCH_KIND_DURATION, CMDBENCH_BETTER_LOWER, CMDBENCH_METRIC_DETAIL);
constexpr cmdbench_metric_meaning kConnections =
    CMDBENCH_MEANING(CMDBENCH_KIND_COUNT, CMDBENCH_BETTER_NONE, CMDBENCH_METRIC_PER_CONNECTION);

struct StepMeanings {
    cmdbench_metric_meaning total, per_conn;
};

bool ends_with(const std::string &s, const std::string &suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

StepMeanings step_meanings(const std::string &row, bool timed) {
    StepMeanings m{kStepDetail,
                   CMDBENCH_MEANING(CMDBENCH_KIND_DURATION, CMDBENCH_BETTER_LOWER,
                                    CMDBENCH_METRIC_PER_CONNECTION |
                                        (timed ? 0u : uint32_t(CMDBENCH_METRIC_UNMEASURED)))};
    if (row == "full connect")
        m.total =
            CMDBENCH_MEANING(CMDBENCH_KIND_DURATION, CMDBENCH_BETTER_NONE, CMDBENCH_METRIC_ELAPSED);
    if (ends_with(row, "full connect")) m.per_conn = kStepDetail;
    return m;
}

// One row per step; hists[s] holds step s's per-connection durations.
void report_step_rows(const cmdbench_run_env &env, const StepReport &report,
                      cmdbench_hist *const (&hists)[kStepCount], const std::string &prefix) {
    const cmdbench_host &h = *env.host;
    const uint64_t n = report.conns;
    for (int s = 0; s < kStepCount; ++s) {
        const StepStats &st = report.step[s];
        const std::string name = prefix + step_label(s);
        cmdbench_row *row = cmdbench::support::begin_row(h, env.ctx, name);
        const StepMeanings mean =
            step_meanings(name, st.samples > 0 || st.sum_us > 0 || st.max_us > 0);
        auto metric = [&](const char *key, uint64_t v, const cmdbench_metric_meaning &m) {
            h.row_metric_ex(row, key, static_cast<double>(v), CMDBENCH_UNIT_PLAIN, &m);
        };
        metric("avg/conn", n ? st.total_us / n : 0, kStepDetail);
        metric("total(us)", st.total_us, mean.total);
        metric("us/conn", n ? st.sum_us / n : 0, mean.per_conn);
        metric("sum(us)", st.sum_us, kStepDetail);
        metric("max(us)", st.max_us, kStepDetail);
        metric("min(us)", st.min_us, kStepDetail);
        metric("conns", n, kConnections);
        if (hists[s]) h.row_hist_ex(row, "conn", hists[s], &kStepDetail);
        h.row_end(row);
    }
}

RunError host_failure(int status, const std::string &what) {
    return cmdbench::support::reported_error(status, what);
}

// Step s's samples in a new host histogram (NULL if the host has none).
cmdbench_hist *sample_hist(const cmdbench_run_env &env, const StepStats &st) {
    cmdbench_hist *hist = env.host->hist_create(env.ctx);
    if (hist)
        for (uint64_t v : st.sample_ns)
            env.host->hist_record(hist, v);
    return hist;
}

} // namespace

void report_rows(const cmdbench_run_env &env, const StepReport &report, const std::string &prefix) {
    cmdbench_hist *hists[kStepCount];
    for (int s = 0; s < kStepCount; ++s)
        hists[s] = sample_hist(env, report.step[s]);
    report_step_rows(env, report, hists, prefix);
}

void send_report(const cmdbench_run_env &env, const StepReport &report, const char *what) {
    swap_blob(env, encode_figures(report), what);
    for (int s = 0; s < kStepCount; ++s) {
        cmdbench_hist *hist = sample_hist(env, report.step[s]);
        if (!hist) throw RunError(CMDBENCH_ERR, std::string(what) + ": hist_create failed");
        const int status = env.host->hist_send(env.ctx, hist);
        if (status != CMDBENCH_OK)
            throw host_failure(status, std::string(what) + ": sending the " + step_label(s) +
                                           " histogram failed");
    }
}

void report_peer_rows(const cmdbench_run_env &env, const std::string &prefix, const char *what) {
    const std::vector<uint8_t> figures = swap_blob(env, {}, what);
    StepReport report;
    try {
        report = decode_figures(figures);
    } catch (const std::runtime_error &e) {
        throw RunError(CMDBENCH_ERR, std::string(what) + ": " + e.what());
    }
    cmdbench_hist *hists[kStepCount];
    for (int s = 0; s < kStepCount; ++s) {
        const int status = env.host->hist_recv(env.ctx, &hists[s]);
        if (status != CMDBENCH_OK)
            throw host_failure(status, std::string(what) + ": receiving the " + step_label(s) +
                                           " histogram failed");
    }
    report_step_rows(env, report, hists, prefix);
}

std::vector<uint8_t> swap_blob(const cmdbench_run_env &env, const std::vector<uint8_t> &ours,
                               const char *what) {
    const cmdbench::support::Peer peer(env, "");
    uint8_t mine[8], theirs[8];
    cmdbench::support::put_be64(mine, ours.size());
    if (peer.exchange(mine, 8, theirs, 8, what) != 8)
        throw RunError(CMDBENCH_ERR, std::string(what) + ": bad length message from the peer");
    const uint64_t want = cmdbench::support::get_be64(theirs);
    if (want > (uint64_t(1) << 32))
        throw RunError(CMDBENCH_ERR, std::string(what) + ": the peer announced an oversize report");
    std::vector<uint8_t> got(static_cast<size_t>(want));
    std::vector<uint8_t> buf(kChunk);
    size_t sent = 0, received = 0;
    // Both sides take part in every round until both have moved everything.
    while (sent < ours.size() || received < got.size()) {
        const size_t len = std::min(kChunk, ours.size() - sent);
        const uint32_t n = peer.exchange(ours.data() + sent, static_cast<uint32_t>(len), buf.data(),
                                         static_cast<uint32_t>(kChunk), what);
        if (n > got.size() - received)
            throw RunError(CMDBENCH_ERR, std::string(what) + ": the peer sent too many bytes");
        std::copy(buf.begin(), buf.begin() + n, got.begin() + static_cast<long>(received));
        sent += len;
        received += n;
        if (len == 0 && n == 0)
            throw RunError(CMDBENCH_ERR, std::string(what) + ": the peer's report stopped short");
    }
    return got;
}

} // namespace cmdbench::cmtime

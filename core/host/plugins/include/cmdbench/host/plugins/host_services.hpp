// The services table the host hands to plugins, and the per-run context
// (cmdbench_ctx) those services act on.
#pragma once
#include "cmdbench/host/params/params.hpp"
#include "cmdbench/host/plugins/wake_event.hpp"
#include "cmdbench/report/histogram.hpp"
#include "cmdbench/report/path_context.hpp"
#include "cmdbench/report/result.hpp"

#include <atomic>
#include <cmdbench/plugin.h>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <poll.h>
#include <string>
#include <vector>

namespace cmdbench {

// Why a run cannot go on because of its peer; `why` is empty while it can.
struct PeerLoss {
    std::string why; // "the client (ADDR) closed the control channel", ...
    // The peer ended the run failing, in its end-of-run message (not a
    // closed channel, not silence): its own reason reaches the report
    // through that message, so this side's failure, if it had one of its
    // own at the same moment, is kept beside it rather than replaced.
    bool peer_reports = false;
};

// How a run talks to its peer(s) for barrier and exchange. The runner and the
// server each provide one over the control channel.
class PeerLink {
  public:
    virtual ~PeerLink() = default;
    virtual int barrier(cmdbench_ctx *ctx, const std::string &name) = 0;
    virtual int exchange(cmdbench_ctx *ctx, const void *data, uint32_t len, void *buf, uint32_t cap,
                         uint32_t *got) = 0;
    // Asked by the host's watchdog, on its own thread, while the test runs:
    // why the run cannot go on because of the peer ("the client (ADDR)
    // closed the control channel", "... ended the run: why"), or nothing
    // while the peer is there. Must not block.
    virtual PeerLoss lost() { return {}; }
    // What the watchdog polls beside its own events before it asks lost()
    // again: entries appended to `fds` whose events may change the answer.
    // True when those are all that can: false (the default) and the
    // watchdog asks again every 100 ms as well.
    virtual bool wake_on(std::vector<pollfd> &fds) {
        (void)fds;
        return false;
    }
};

uint64_t monotonic_ns();

// Called when a row ends, so results reach the reporters (and the disk) as
// soon as they exist.
using RowSink = std::function<void(const Row &)>;
using ProgressSink = std::function<void(uint64_t done, uint64_t total)>;

// What a run's context starts with: the parameters the plugin reads through
// the host services, and where what it reports goes.
struct RunInputs {
    ParamMap params;                                // the test's and the transport's
    const std::atomic<bool> *interrupted = nullptr; // process-wide Ctrl-C; null: none
    std::string log_prefix;
    RowSink on_row;
    ProgressSink on_progress;
};

} // namespace cmdbench

// The opaque handle of plugin.h. One per run per peer.
struct cmdbench_ctx {
    std::map<std::string, cmdbench::ParamValue> params; // test's and transport's
    uint64_t deadline_ns = 0;
    const std::atomic<bool> *interrupted = nullptr; // process-wide Ctrl-C
    std::atomic<bool> cancelled{false};             // this run: timeout, peer gone
    cmdbench::WakeEvent stop_event;                 // set with cancelled (cancel_run)
    cmdbench::PeerLink *peer = nullptr;
    const cmdbench_transport *transport = nullptr; // the plugin's own, for guarded hooks
    cmdbench::RowSink on_row;
    cmdbench::ProgressSink on_progress;
    std::string log_prefix;

    std::mutex mu; // rows and histograms may come from a test's own threads
    std::string error;
    // The first metric meaning reported that plugin.h does not define: the
    // run fails with it (role_run.cpp), its metric is kept as undeclared.
    std::string invalid_meaning;
    std::deque<cmdbench::Histogram> hists;
    std::deque<cmdbench_row *> open_rows;
    std::vector<cmdbench::Row> rows;
    // What the plugin said of the run (run_setting): key, value, in order.
    std::vector<std::pair<std::string, std::string>> settings;

    // Where the run ran (placement.hpp): a bit per CPU a thread of the test
    // was on when it called the host, and what the test's thread saw of its
    // placement when the test returned (under mu).
    std::atomic<uint64_t> cpus_seen[16]{};
    cmdbench::SideAffinity seen;

    ~cmdbench_ctx();
};

namespace cmdbench {

// The one services table of this host (ABI major.minor of this build).
const cmdbench_host *host_services();

// A new run's context, holding `in`.
std::shared_ptr<cmdbench_ctx> make_run_ctx(RunInputs in);

int64_t remaining_ms(const cmdbench_ctx &ctx);

// Cancels the run: sets ctx.cancelled and wakes whoever waits on its stop_event.
void cancel_run(cmdbench_ctx &ctx);

// The events that tell a waiting thread the run must stop: its stop_event,
// and the process's interrupt event when the run heeds Ctrl-C; appended to `fds`.
void add_stop_events(const cmdbench_ctx &ctx, std::vector<pollfd> &fds);

// The most detailed plugin log level printed (CMDBENCH_LOG_*): the
// environment's CMDBENCH_LOG_LEVEL (error, warning, info, debug), else debug
// when CMDBENCH_DEBUG is set, else info.
int plugin_log_level();
// Plugins' info lines off for this process and the servers it starts from
// now on (CMDBENCH_LOG_LEVEL=warning), unless the user chose a level.
void quiet_plugin_info();

// Marks the CPU the calling thread is on in ctx.cpus_seen (cheap: a vDSO
// call, and a write only the first time a CPU is seen).
void note_cpu(cmdbench_ctx &ctx);
// ctx.cpus_seen as a list ("0-1"), "unknown" when nothing was seen.
std::string cpus_seen_text(const cmdbench_ctx &ctx);

} // namespace cmdbench

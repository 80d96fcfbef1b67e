#include "cmdbench/host/run/test_executor.hpp"

#include "cmdbench/host/plugins/transport_guard.hpp"
#include "cmdbench/host/run/crash_report.hpp"
#include "cmdbench/host/run/status_code.hpp"
#include "cmdbench/host/scenario/placement.hpp"

#include <algorithm>
#include <mutex>
#include <thread>
#include <vector>

namespace cmdbench {
namespace {

struct Shared {
    std::mutex mu;
    bool done = false;
    int status = CMDBENCH_OK;
    WakeEvent ended; // set once done is
    bool is_done() {
        std::lock_guard<std::mutex> lock(mu);
        return done;
    }
};

// A test's return code, read in the light of why the run may have stopped.
RunStatus status_of(int rc, const cmdbench_ctx &ctx) {
    if (rc == CMDBENCH_OK || rc == CMDBENCH_ERR_SKIP || rc == CMDBENCH_ERR_TIMEOUT)
        return status_from_code(rc);
    if (rc == CMDBENCH_ERR_CANCELLED && ctx.interrupted && ctx.interrupted->load())
        return RunStatus::Interrupted;
    // A cancel or failure after the deadline is the deadline's doing.
    if (ctx.deadline_ns && monotonic_ns() >= ctx.deadline_ns) return RunStatus::TimedOut;
    return RunStatus::Failed;
}

std::string error_of(cmdbench_ctx &ctx) {
    std::lock_guard<std::mutex> lock(ctx.mu);
    return ctx.error;
}

} // namespace

std::optional<Execution> probe_transport(const cmdbench_transport *transport,
                                         const std::shared_ptr<cmdbench_ctx> &ctx) {
    if (!transport || !transport->probe) return std::nullopt;
    ctx->transport = transport;
    int rc = guarded_probe(*transport, ctx.get());
    if (rc == CMDBENCH_OK) return std::nullopt;
    Execution ex;
    ex.status = rc == CMDBENCH_ERR_SKIP ? RunStatus::Skipped : RunStatus::Failed;
    ex.error = error_of(*ctx);
    if (ex.error.empty())
        ex.error = std::string("transport '") + transport->name + "' is not usable here";
    return ex;
}

namespace {

// The test's own thread: runs it, then records where it ran and its status.
void run_test_thread(const cmdbench_test *test, std::shared_ptr<cmdbench_transport> guarded,
                     std::shared_ptr<cmdbench_ctx> ctx, uint32_t role,
                     std::shared_ptr<std::string> peer, std::shared_ptr<Shared> shared,
                     const cmdbench_host *host) {
    crash_report::ThreadAltStack alt_stack; // a stack overflow still reports
    cmdbench_run_env env{};
    env.struct_size = sizeof env;
    env.host = host;
    env.ctx = ctx.get();
    env.role = role;
    env.transport = guarded.get();
    env.peer_host = peer->empty() ? nullptr : peer->c_str();
    note_cpu(*ctx);
    int rc = test->run(&env);
    // Where this thread ended up, and where its new memory goes.
    note_cpu(*ctx);
    SideAffinity seen;
    note_thread_placement(seen);
    {
        std::lock_guard<std::mutex> seen_lock(ctx->mu);
        ctx->seen = seen;
    }
    {
        std::lock_guard<std::mutex> lock(shared->mu);
        shared->status = rc;
        shared->done = true;
    }
    shared->ended.set();
}

// Why the watchdog cancelled a test, if it did.
struct Stop {
    bool interrupted = false;
    PeerLoss peer;             // PeerLink::lost's answer
    bool failed_first = false; // the test had said why it failed before that
};

// Whether the run must stop now: Ctrl-C, the deadline, or the peer's loss
// (asked of the peer link only while nothing else says stop).
bool must_stop(cmdbench_ctx &ctx, Stop &why) {
    why.interrupted = ctx.interrupted && ctx.interrupted->load();
    if (why.interrupted || (ctx.deadline_ns && monotonic_ns() >= ctx.deadline_ns)) return true;
    if (ctx.peer) why.peer = ctx.peer->lost();
    return !why.peer.why.empty();
}

// How often the watchdog asks a peer link that names no events (wake_on).
constexpr int kBlindLookMs = 100;
// And one that does: a safety net, so that a loss no event announced (a
// RunEnd queued behind a message the test has not read, which lost()
// cannot peek past; a bug) is noticed within 250 ms, not at the run's
// timeout. Four looks a second, against the 30 wake-ups a second that cost
// the READ loop (bench/README.md, "The host's periodic wake-ups").
constexpr int kSafetyLookMs = 250;

// Milliseconds from now to `at_ns` for poll(), rounded up: -1 for never (0).
int poll_ms_until(uint64_t at_ns) {
    if (!at_ns) return -1;
    const uint64_t now = monotonic_ns();
    if (now >= at_ns) return 0;
    return int(std::min<uint64_t>((at_ns - now + 999999) / 1000000, 24 * 3600 * 1000));
}

// Waits for the test; wakes on its end, Ctrl-C, a cancel, the deadline, or
// whatever the peer link says may mean its loss, and otherwise every 250 ms
// (three threads waking every 100 ms cost the timed loop, wake_event.hpp).
// Gives up kGraceSeconds after the deadline, the interrupt or the loss.
// Whether it ended.
bool wait_for_test(Shared &shared, cmdbench_ctx &ctx, Stop &why) {
    uint64_t give_up = 0; // set once the run must stop
    std::vector<pollfd> fds;
    for (;;) {
        if (shared.is_done()) return true;
        if (!give_up && must_stop(ctx, why)) {
            why.failed_first = !error_of(ctx).empty(); // see ended_test
            cancel_run(ctx);
            give_up = monotonic_ns() + uint64_t(kGraceSeconds * 1e9);
        }
        if (give_up && monotonic_ns() >= give_up) return shared.is_done();
        fds.assign(1, pollfd{shared.ended.fd(), POLLIN, 0});
        bool blind = false; // a peer link whose loss no event announces
        if (!give_up) {
            if (ctx.interrupted) fds.push_back({interrupt_event_fd(), POLLIN, 0});
            if (ctx.peer) blind = !ctx.peer->wake_on(fds);
        }
        int timeout_ms = poll_ms_until(give_up ? give_up : ctx.deadline_ns);
        const int look_ms = give_up ? -1 : blind ? kBlindLookMs : kSafetyLookMs;
        if (look_ms > 0) timeout_ms = timeout_ms < 0 ? look_ms : std::min(timeout_ms, look_ms);
        // EINTR and spurious wake-ups only go round again.
        poll_events(fds, timeout_ms);
    }
}

// What a test that ended with `rc` did, its error always said.
Execution ended_test(const cmdbench_test *test, int rc, cmdbench_ctx &ctx, const Stop &why) {
    Execution ex;
    ex.status = status_of(rc, ctx);
    ex.error = error_of(ctx);
    // Stopped for its peer's loss: that is the reason, whatever the test
    // said then, unless it had failed on its own: it said why before the
    // stop, or it failed with its own words (not a return for the cancel)
    // while the peer's end of the run, which carries the peer's reason,
    // was already on its way. Both sides failing at once each keep theirs,
    // however fast the watchdog woke on the peer's end.
    const bool own_failure =
        why.failed_first ||
        (why.peer.peer_reports && rc != CMDBENCH_ERR_CANCELLED && !ex.error.empty());
    if (ex.status == RunStatus::Failed && !why.peer.why.empty() && !own_failure) {
        ex.peer_lost = why.peer.why;
        ex.error = why.peer.why;
    }
    if (ex.status == RunStatus::TimedOut && ex.error.empty()) ex.error = "timed out";
    if (ex.status == RunStatus::Interrupted && ex.error.empty()) ex.error = "interrupted";
    if (ex.status == RunStatus::Failed && ex.error.empty())
        ex.error = std::string("test '") + test->name + "' failed without saying why";
    if (ex.status == RunStatus::Ok) ex.error.clear();
    return ex;
}

// A test that did not stop within the grace: what the run reports.
Execution abandoned_test(const cmdbench_test *test, const Stop &why) {
    Execution ex;
    ex.abandoned = true;
    ex.status = why.interrupted        ? RunStatus::Interrupted
                : why.peer.why.empty() ? RunStatus::TimedOut
                                       : RunStatus::Failed;
    ex.peer_lost = why.peer.why;
    const std::string cause = why.interrupted        ? "its interrupt"
                              : why.peer.why.empty() ? "its timeout"
                                                     : "its peer's loss (" + why.peer.why + ")";
    ex.error = std::string("test '") + test->name + "' did not stop within " +
               std::to_string(int(kGraceSeconds)) + " s of " + cause;
    return ex;
}

} // namespace

Execution execute_test(const cmdbench_test *test, const cmdbench_transport *transport,
                       const std::shared_ptr<cmdbench_ctx> &ctx, uint32_t role,
                       const std::string &peer_host) {
    auto shared = std::make_shared<Shared>();
    // The test calls the transport through the host's guard (transport_guard.hpp).
    std::shared_ptr<cmdbench_transport> guarded;
    if (transport) guarded = std::make_shared<cmdbench_transport>(guarded_transport(*transport));
    ctx->transport = transport;
    std::thread worker(run_test_thread, test, guarded, ctx, role,
                       std::make_shared<std::string>(peer_host), shared, host_services());
    Stop why;
    if (!wait_for_test(*shared, *ctx, why)) {
        worker.detach(); // it keeps ctx and shared alive
        return abandoned_test(test, why);
    }
    worker.join();
    return ended_test(test, shared->status, *ctx, why);
}

} // namespace cmdbench

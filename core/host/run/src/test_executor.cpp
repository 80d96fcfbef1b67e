#include "cmdbench/host/run/test_executor.hpp"

#include "cmdbench/host/plugins/transport_guard.hpp"
#include "cmdbench/host/run/crash_report.hpp"
#include "cmdbench/host/run/status_code.hpp"
#include "cmdbench/host/scenario/placement.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace cmdbench {
namespace {

struct Shared {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    int status = CMDBENCH_OK;
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
    std::lock_guard<std::mutex> lock(shared->mu);
    shared->status = rc;
    shared->done = true;
    shared->cv.notify_all();
}

// Why the watchdog cancelled a test, if it did.
struct Stop {
    bool interrupted = false;
    std::string peer_lost; // PeerLink::lost's reason
};

// Whether the run must stop now: Ctrl-C, the deadline, or the peer's loss
// (asked of the peer link only while nothing else says stop).
bool must_stop(cmdbench_ctx &ctx, Stop &why) {
    why.interrupted = ctx.interrupted && ctx.interrupted->load();
    if (why.interrupted || (ctx.deadline_ns && monotonic_ns() >= ctx.deadline_ns)) return true;
    if (ctx.peer) why.peer_lost = ctx.peer->lost();
    return !why.peer_lost.empty();
}

// Waits for the test, waking up regularly to notice an interrupt or the
// loss of its peer; gives up kGraceSeconds after the deadline, the
// interrupt or the loss. Whether it ended.
bool wait_for_test(Shared &shared, cmdbench_ctx &ctx, Stop &why) {
    using clock = std::chrono::steady_clock;
    auto grace = std::chrono::milliseconds(int(kGraceSeconds * 1000));
    clock::time_point give_up = clock::time_point::max();
    std::unique_lock<std::mutex> lock(shared.mu);
    while (!shared.done) {
        shared.cv.wait_for(lock, std::chrono::milliseconds(100));
        if (shared.done) break;
        if (give_up == clock::time_point::max()) {
            lock.unlock(); // the peer link may take a moment to look
            const bool stop = must_stop(ctx, why);
            lock.lock();
            if (!stop) continue;
            ctx.cancelled = true;
            give_up = clock::now() + grace;
        }
        if (clock::now() >= give_up) break;
    }
    return shared.done;
}

// What a test that ended with `rc` did, its error always said.
Execution ended_test(const cmdbench_test *test, int rc, cmdbench_ctx &ctx, const Stop &why) {
    Execution ex;
    ex.status = status_of(rc, ctx);
    ex.error = error_of(ctx);
    // Stopped for its peer's loss: that is the reason, whatever the test said.
    if (ex.status == RunStatus::Failed && !why.peer_lost.empty()) {
        ex.peer_lost = why.peer_lost;
        ex.error = why.peer_lost;
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
    ex.status = why.interrupted         ? RunStatus::Interrupted
                : why.peer_lost.empty() ? RunStatus::TimedOut
                                        : RunStatus::Failed;
    ex.peer_lost = why.peer_lost;
    const std::string cause = why.interrupted         ? "its interrupt"
                              : why.peer_lost.empty() ? "its timeout"
                                                      : "its peer's loss (" + why.peer_lost + ")";
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

// One role of one verbs run: host services, bounded stops
// and the error type carried to the test's ABI edge.
#ifndef CMDBENCH_VERBS_RUN_HPP
#define CMDBENCH_VERBS_RUN_HPP

#include <atomic>
#include <cmdbench/plugin-support/run_error.hpp>
#include <cmdbench/plugin.h>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace cmdbench::verbs {

// A failed run (its cmdbench_status and one-line reason); fail(message);
// fail_errno(call, err): "<call>: <strerror(err)>", safe in worker threads.
using cmdbench::support::fail;
using cmdbench::support::fail_errno;
using cmdbench::support::RunError;

// The run's deadline, the host's cancel and an abort flag, shared by worker
// threads. Only the test's own thread (the one that made the Stopper) asks
// the host for a cancel: worker threads must not call host services that
// take the run's ctx concurrently, so while they run, the test's thread
// watches for them (run_workers) and aborts.
class Stopper {
  public:
    Stopper(const cmdbench_host &host, cmdbench_ctx *ctx, uint64_t deadline_ns)
        : host_(host), ctx_(ctx), deadline_(deadline_ns), owner_(std::this_thread::get_id()) {}
    // Throws CANCELLED once abort() was called or, on the test's own
    // thread, once the host cancelled the run (Ctrl-C, its peer gone);
    // TIMEOUT past the deadline.
    void check(const char *what) const;
    void abort() { aborted_ = true; }
    bool aborted() const { return aborted_; }
    // Milliseconds to the deadline, at least 0.
    int64_t remaining_ms() const;

  private:
    const cmdbench_host &host_;
    cmdbench_ctx *ctx_;
    uint64_t deadline_;
    std::thread::id owner_;
    mutable std::atomic<bool> aborted_{false};
};

class Run {
  public:
    explicit Run(const cmdbench_run_env &env);

    const cmdbench_host &host() const { return *env_.host; }
    cmdbench_ctx *ctx() const { return env_.ctx; }
    bool is_client() const { return env_.role == CMDBENCH_ROLE_CLIENT; }
    const char *peer_host() const { return env_.peer_host; }
    Stopper &stopper() { return stopper_; }

    const cmdbench_run_env &env() const { return env_; }

    // Throws TIMEOUT / CANCELLED once the run must stop (main thread only).
    void check_stop(const char *what);
    void barrier(const std::string &name) const;
    // Sends `ours` and returns the peer's message (at most 64 KiB).
    std::vector<uint8_t> exchange(const std::vector<uint8_t> &ours, const char *what) const;
    void log(int level, const std::string &line) const;
    // An effective setting for the run's header and results (run_setting),
    // on the client, whose settings reach the results; a no-op on the server.
    void setting(const std::string &key, const std::string &value) const;
    void setting(const std::string &key, int64_t value) const;

  private:
    const cmdbench_run_env &env_;
    Stopper stopper_;
};

// The skip for a machine without a usable device: "needs an RDMA device: ...".
[[noreturn]] void skip_no_device(const std::string &why);

} // namespace cmdbench::verbs

#endif

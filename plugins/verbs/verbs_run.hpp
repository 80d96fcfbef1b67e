// One role of one verbs run: host services, typed parameters, bounded stops
// and the error type carried to the test's ABI edge.
#ifndef CMDBENCH_VERBS_RUN_HPP
#define CMDBENCH_VERBS_RUN_HPP

#include <atomic>
#include <cmdbench/plugin.h>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace verbs {

// A failed run: its cmdbench_status and one-line reason.
struct RunError : std::runtime_error {
    RunError(int status_, const std::string &what) : std::runtime_error(what), status(status_) {}
    int status;
};

[[noreturn]] void fail(const std::string &message);
// "<call>: <strerror(err)>".
[[noreturn]] void fail_errno(const std::string &call, int err);

// The run's deadline and an abort flag, shared by worker threads: they must
// not call host services that take the run's ctx concurrently.
class Stopper {
  public:
    Stopper(const cmdbench_host &host, uint64_t deadline_ns)
        : host_(host), deadline_(deadline_ns) {}
    // Throws TIMEOUT past the deadline, CANCELLED once abort() was called.
    void check(const char *what) const;
    void abort() { aborted_ = true; }
    bool aborted() const { return aborted_; }
    // Milliseconds to the deadline, at least 0.
    int64_t remaining_ms() const;

  private:
    const cmdbench_host &host_;
    uint64_t deadline_;
    std::atomic<bool> aborted_{false};
};

class Run {
  public:
    explicit Run(const cmdbench_run_env &env);

    const cmdbench_host &host() const { return *env_.host; }
    cmdbench_ctx *ctx() const { return env_.ctx; }
    bool is_client() const { return env_.role == CMDBENCH_ROLE_CLIENT; }
    const char *peer_host() const { return env_.peer_host; }
    Stopper &stopper() { return stopper_; }

    bool param_bool(const char *name) const;
    int64_t param_int(const char *name) const;
    double param_double(const char *name) const;
    std::string param_string(const char *name) const;
    std::vector<int64_t> param_int_list(const char *name) const;

    // Throws TIMEOUT / CANCELLED once the run must stop (main thread only).
    void check_stop(const char *what);
    void barrier(const std::string &name) const;
    // Sends `ours` and returns the peer's message (at most 64 KiB).
    std::vector<uint8_t> exchange(const std::vector<uint8_t> &ours, const char *what) const;
    void log(int level, const std::string &line) const;

  private:
    const cmdbench_run_env &env_;
    Stopper stopper_;
};

int run_guarded(const cmdbench_run_env *env, void (*body)(Run &));

// Empty when an RDMA device is usable, else why not (for the skip message).
std::string rdma_device_problem();
// The skip for a machine without a usable device: "needs an RDMA device: ...".
[[noreturn]] void skip_no_device(const std::string &why);

} // namespace verbs

#endif

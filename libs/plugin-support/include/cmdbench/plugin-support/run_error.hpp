// The one error type of a plugin's run: an exception carrying the ABI status
// (cmdbench_status) and the one-line reason the host shows. run_guarded turns
// it into the test's return value and set_error.
#ifndef CMDBENCH_PLUGIN_SUPPORT_RUN_ERROR_HPP
#define CMDBENCH_PLUGIN_SUPPORT_RUN_ERROR_HPP

#include <stdexcept>
#include <string>

namespace cmdbench::support {

struct RunError : std::runtime_error {
    RunError(int status_, const std::string &what) : std::runtime_error(what), status(status_) {}
    int status;
    // A host service or transport hook already gave the run's error its
    // reason: run_guarded keeps that one and only logs this message (if any).
    bool reported = false;
};

// A RunError whose reason the host already has (see RunError::reported).
RunError reported_error(int status, const std::string &what = std::string());

// Throws RunError(CMDBENCH_ERR, message).
[[noreturn]] void fail(const std::string &message);
// Throws RunError(CMDBENCH_ERR, "<call>: <errno_text(err)>").
[[noreturn]] void fail_errno(const std::string &call, int err);

// strerror's text for `err`, safe to call from any thread.
std::string errno_text(int err);

} // namespace cmdbench::support

#endif

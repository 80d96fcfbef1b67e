// The one error type of a plugin's run: an exception carrying the ABI status
// (cmdbench_status) and the one-line reason the host shows. run_guarded turns
// it into the test's return value and set_error. Header-only, like
// param_spec.hpp, so that an out-of-tree plugin can use it with the SDK alone.
#ifndef CMDBENCH_PLUGIN_SUPPORT_RUN_ERROR_HPP
#define CMDBENCH_PLUGIN_SUPPORT_RUN_ERROR_HPP

#include <cmdbench/plugin.h>
#include <cstring>
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
inline RunError reported_error(int status, const std::string &what = std::string()) {
    RunError e(status, what);
    e.reported = true;
    return e;
}

// Throws RunError(CMDBENCH_ERR, message).
[[noreturn]] inline void fail(const std::string &message) {
    throw RunError(CMDBENCH_ERR, message);
}

namespace detail {
// strerror_r comes in two flavours: GNU returns the text (maybe not in buf),
// XSI fills buf and returns an int. Overloads pick whichever libc gives.
[[maybe_unused]] inline const char *strerror_text(const char *gnu, const char *) {
    return gnu;
}
[[maybe_unused]] inline const char *strerror_text(int xsi, const char *buf) {
    return xsi == 0 ? buf : "unknown error";
}
} // namespace detail

// strerror's text for `err`, safe to call from any thread.
inline std::string errno_text(int err) {
    char buf[128] = "";
    return detail::strerror_text(strerror_r(err, buf, sizeof buf), buf);
}

// Throws RunError(CMDBENCH_ERR, "<call>: <errno_text(err)>").
[[noreturn]] inline void fail_errno(const std::string &call, int err) {
    fail(call + ": " + errno_text(err));
}

} // namespace cmdbench::support

#endif

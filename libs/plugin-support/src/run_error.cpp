// The run error and errno text (see run_error.hpp).
#include "cmdbench/plugin-support/run_error.hpp"

#include <cmdbench/plugin.h>
#include <cstring>

namespace cmdbench::support {
namespace {

// strerror_r comes in two flavours: GNU returns the text (maybe not in buf),
// XSI fills buf and returns an int. Overloads pick whichever libc gives.
[[maybe_unused]] const char *text_of(const char *gnu, const char *) {
    return gnu;
}
[[maybe_unused]] const char *text_of(int xsi, const char *buf) {
    return xsi == 0 ? buf : "unknown error";
}

} // namespace

RunError reported_error(int status, const std::string &what) {
    RunError e(status, what);
    e.reported = true;
    return e;
}

void fail(const std::string &message) {
    throw RunError(CMDBENCH_ERR, message);
}

void fail_errno(const std::string &call, int err) {
    fail(call + ": " + errno_text(err));
}

std::string errno_text(int err) {
    char buf[128] = "";
    return text_of(strerror_r(err, buf, sizeof buf), buf);
}

} // namespace cmdbench::support

#include "cmdbench/host/serve/run_request_check.hpp"

#include "cmdbench/host/run/test_executor.hpp"
#include "cmdbench/host/scenario/run_limits.hpp"

#include <algorithm>
#include <cstdio>

namespace cmdbench {
namespace {

std::string number_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

Status check_length(const char *field, const std::string &value, size_t max_bytes) {
    if (value.size() <= max_bytes) return {};
    return unexpected("RunRequest field '" + std::string(field) + "' must be at most " +
                      std::to_string(max_bytes) + " bytes, got " + std::to_string(value.size()));
}

} // namespace

Status check_run_request(const control::RunRequest &request) {
    if (!timeout_allowed(request.timeout_s))
        return unexpected(
            "RunRequest field 'timeout' must be > 0 and <= " + number_text(kMaxTimeout) +
            " seconds, got " + number_text(request.timeout_s));
    if (auto s = check_length("name", request.run_name, kMaxRunNameBytes); !s) return s;
    if (auto s = check_length("test", request.test, kMaxPluginNameBytes); !s) return s;
    if (auto s = check_length("transport", request.transport, kMaxPluginNameBytes); !s) return s;
    return {};
}

int clamp_wait_ms(int64_t ms) {
    constexpr int64_t kMaxWaitMs = int64_t((kMaxTimeout + kGraceSeconds) * 1000);
    return int(std::clamp<int64_t>(ms, 0, kMaxWaitMs));
}

} // namespace cmdbench

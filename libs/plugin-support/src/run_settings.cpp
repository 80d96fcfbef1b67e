// Recording a run's settings (see run_settings.hpp).
#include "cmdbench/plugin-support/run_settings.hpp"

#include "cmdbench/plugin-support/run_error.hpp"

#include <cstddef>

namespace cmdbench::support {

void record_setting(const cmdbench_host &host, cmdbench_ctx *ctx, const std::string &key,
                    const std::string &value) {
    constexpr size_t kEnd = offsetof(cmdbench_host, run_setting) + sizeof host.run_setting;
    if (host.struct_size < kEnd || !host.run_setting) return;
    if (host.run_setting(ctx, key.c_str(), value.c_str()) != CMDBENCH_OK)
        fail("run_setting '" + key +
             "' refused (keys: 1-64 characters of [a-z0-9_]; values: "
             "at most 256 bytes; at most 64 a run)");
}

void record_setting(const cmdbench_host &host, cmdbench_ctx *ctx, const std::string &key,
                    int64_t value) {
    record_setting(host, ctx, key, std::to_string(value));
}

} // namespace cmdbench::support

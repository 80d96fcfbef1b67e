// Recording a run's effective settings (host service run_setting, ABI 1.3):
// what the test used that its parameters do not show, one call each, e.g.
//   support::record_setting(host, ctx, "tx_depth", 128);
#ifndef CMDBENCH_PLUGIN_SUPPORT_RUN_SETTINGS_HPP
#define CMDBENCH_PLUGIN_SUPPORT_RUN_SETTINGS_HPP

#include <cmdbench/plugin.h>
#include <cstdint>
#include <string>

namespace cmdbench::support {

// host.run_setting, or RunError with the host's reason when it refuses (a
// key that is not [a-z0-9_], a value too long). A host table without the
// service (a test double) records nothing.
void record_setting(const cmdbench_host &host, cmdbench_ctx *ctx, const std::string &key,
                    const std::string &value);
void record_setting(const cmdbench_host &host, cmdbench_ctx *ctx, const std::string &key,
                    int64_t value);

} // namespace cmdbench::support

#endif

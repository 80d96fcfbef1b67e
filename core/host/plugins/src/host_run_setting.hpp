// Host service run_setting (ABI 1.3): an effective setting of the run, kept
// beside its rows for the run's header and results.
#pragma once
#include "cmdbench/host/plugins/host_services.hpp"

namespace cmdbench {

int run_setting(cmdbench_ctx *ctx, const char *key, const char *value);

} // namespace cmdbench

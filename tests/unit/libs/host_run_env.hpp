// A client-side run env on the real host services, for the plugin-support
// tests that read parameters and errors through them.
#pragma once
#include "cmdbench/host/plugins/host_services.hpp"

#include <cmdbench/plugin.h>

inline cmdbench_run_env env_of(cmdbench_ctx &ctx) {
    return cmdbench_run_env{sizeof(cmdbench_run_env),
                            cmdbench::host_services(),
                            &ctx,
                            CMDBENCH_ROLE_CLIENT,
                            nullptr,
                            nullptr};
}

// Descriptor and entry point of plugin "rdmacm".
#include "cm_steps.hpp"

#include <cmdbench/plugin.h>

namespace {

const cmdbench_test *const tests[] = {&cmtime::cm_steps_test()};

const cmdbench_plugin plugin = {
    sizeof(cmdbench_plugin),
    CMDBENCH_ABI_MAJOR,
    CMDBENCH_ABI_MINOR,
    "rdmacm",
    "0.1.0",
    "RDMA CM connection-step timing (rdma-core's cmtime)",
    0,
    nullptr,
    sizeof(tests) / sizeof(tests[0]),
    tests,
};

} // namespace

CMDBENCH_PLUGIN_ENTRY {
    return &plugin;
}

// Descriptor and entry point of plugin "rdmacm".
#include "cm_steps.hpp"

#include <cmdbench/plugin-support/descriptors.hpp>

CMDBENCH_PLUGIN_ENTRY {
    static const cmdbench_test *const tests[] = {&cmdbench::rdmacm::cm_steps_test()};
    static const cmdbench_plugin plugin = cmdbench::support::plugin_descriptor(
        {"rdmacm", "0.1.0", "RDMA CM connection-step timing (rdma-core's cmtime)"}, tests);
    return &plugin;
}

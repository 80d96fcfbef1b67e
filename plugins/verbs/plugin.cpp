// Descriptor and entry point of plugin "verbs".
#include "verbs_tests.hpp"

#include <cmdbench/plugin.h>

namespace {

const cmdbench_test *const tests[] = {&verbs::lat_test(), &verbs::bw_test()};

const cmdbench_plugin plugin = {
    sizeof(cmdbench_plugin),
    CMDBENCH_ABI_MAJOR,
    CMDBENCH_ABI_MINOR,
    "verbs",
    "0.1.0",
    "Native verbs over RC QPs through rdma_cm: SEND, RDMA WRITE and RDMA READ latency and "
    "bandwidth (perftest's ib_*_lat and ib_*_bw)",
    0,
    nullptr,
    sizeof(tests) / sizeof(tests[0]),
    tests,
};

} // namespace

CMDBENCH_PLUGIN_ENTRY {
    return &plugin;
}

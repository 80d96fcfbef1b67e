// Descriptor and entry point of plugin "verbs".
#include "verbs_params.hpp"

#include <cmdbench/plugin-support/descriptors.hpp>

namespace {

const cmdbench_test *const tests[] = {&verbs::lat_test(), &verbs::bw_test()};

const cmdbench_plugin plugin = cmdbench::support::plugin_descriptor(
    {"verbs", "0.1.0",
     "Native verbs over RC QPs through rdma_cm: SEND, RDMA WRITE and RDMA READ latency and "
     "bandwidth (perftest's ib_*_lat and ib_*_bw)"},
    tests);

} // namespace

CMDBENCH_SUPPORT_PLUGIN_ENTRY(plugin)

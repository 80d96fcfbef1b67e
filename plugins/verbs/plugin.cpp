// Descriptors and entry point of plugin "verbs".
#include "verbs_params.hpp"

#include <cmdbench/plugin-support/descriptors.hpp>
#include <cmdbench/plugin-support/run_guard.hpp>

CMDBENCH_PLUGIN_ENTRY {
    using cmdbench::support::guarded_run;
    static const cmdbench_test lat = cmdbench::verbs::verbs_test_descriptor(
        false,
        "verbs ping-pong latency over RC QPs through rdma_cm (perftest's "
        "ib_send_lat / ib_write_lat / ib_read_lat): rtt percentiles per size",
        guarded_run<cmdbench::verbs::Run, cmdbench::verbs::run_lat>);
    static const cmdbench_test bw = cmdbench::verbs::verbs_test_descriptor(
        true,
        "verbs bandwidth over RC QPs through rdma_cm, windowed with CQ "
        "moderation, measured at the sender (perftest's ib_*_bw -R; "
        "bidirectional: -b)",
        guarded_run<cmdbench::verbs::Run, cmdbench::verbs::run_bw>);
    static const cmdbench_test *const tests[] = {&lat, &bw};
    static const cmdbench_plugin plugin = cmdbench::support::plugin_descriptor(
        {"verbs", "0.1.0",
         "Native verbs over RC QPs through rdma_cm: SEND, RDMA WRITE and RDMA READ latency and "
         "bandwidth (perftest's ib_*_lat and ib_*_bw)"},
        tests);
    return &plugin;
}

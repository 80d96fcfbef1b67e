// Descriptor and entry point of plugin "stream".
#include "stream_tests.hpp"

#include <cmdbench/plugin-support/descriptors.hpp>

CMDBENCH_PLUGIN_ENTRY {
    static const cmdbench_test *const tests[] = {&cmdbench::stream::pingpong_test(),
                                                 &cmdbench::stream::throughput_test()};
    static const cmdbench_plugin plugin = cmdbench::support::plugin_descriptor(
        {"stream", "0.1.0",
         "Stream tests over any transport: rstream's ping-pong and one-way throughput"},
        tests);
    return &plugin;
}

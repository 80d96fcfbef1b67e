// Descriptor and entry point of plugin "stream".
#include "stream_tests.hpp"

#include <cmdbench/plugin-support/descriptors.hpp>

namespace {

const cmdbench_test *const tests[] = {&stream::pingpong_test(), &stream::throughput_test()};

const cmdbench_plugin plugin = cmdbench::support::plugin_descriptor(
    {"stream", "0.1.0",
     "Stream tests over any transport: rstream's ping-pong and one-way throughput"},
    tests);

} // namespace

CMDBENCH_SUPPORT_PLUGIN_ENTRY(plugin)

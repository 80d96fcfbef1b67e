// Descriptor and entry point of plugin "stream".
#include "stream_tests.hpp"

#include <cmdbench/plugin.h>

namespace {

const cmdbench_test *const tests[] = {&stream::pingpong_test(), &stream::throughput_test()};

const cmdbench_plugin plugin = {
    sizeof(cmdbench_plugin),
    CMDBENCH_ABI_MAJOR,
    CMDBENCH_ABI_MINOR,
    "stream",
    "0.1.0",
    "Stream tests over any transport: rstream's ping-pong and one-way throughput",
    0,
    nullptr,
    sizeof(tests) / sizeof(tests[0]),
    tests,
};

} // namespace

CMDBENCH_PLUGIN_ENTRY {
    return &plugin;
}

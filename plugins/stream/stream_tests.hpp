// The tests of plugin "stream", for its descriptor.
#ifndef CMDBENCH_STREAM_TESTS_HPP
#define CMDBENCH_STREAM_TESTS_HPP

#include <cmdbench/plugin.h>

namespace cmdbench::stream {

const cmdbench_test &pingpong_test();
const cmdbench_test &throughput_test();

} // namespace cmdbench::stream

#endif

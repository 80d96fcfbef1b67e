// The tests of plugin "verbs", for its descriptor.
#ifndef CMDBENCH_VERBS_TESTS_HPP
#define CMDBENCH_VERBS_TESTS_HPP

#include <cmdbench/plugin.h>

namespace verbs {

const cmdbench_test &lat_test();
const cmdbench_test &bw_test();

} // namespace verbs

#endif

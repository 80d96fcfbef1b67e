// Test "cm-steps": cmtime's RDMA CM connection-step timing between one
// client and one server of a scenario run.
#pragma once
#include <cmdbench/plugin.h>

namespace cmdbench::rdmacm {

const cmdbench_test &cm_steps_test();

} // namespace cmdbench::rdmacm

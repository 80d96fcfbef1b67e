// Test "sock-steps": cmtime's -S TCP baseline as a
// two-peer test, with no RDMA library or device involved.
#pragma once
#include <cmdbench/plugin.h>

namespace cmdbench::tcp_socket {

const cmdbench_test &sock_steps_test();

} // namespace cmdbench::tcp_socket

// Descriptor and entry point of plugin "tcp-socket".
#include "sock_steps.hpp"
#include "tcp_transport.hpp"

#include <cmdbench/plugin.h>

namespace {

const cmdbench_transport *const transports[] = {&tcp_socket::tcp_transport()};
const cmdbench_test *const tests[] = {&tcp_socket::sock_steps_test()};

const cmdbench_plugin plugin = {
    sizeof(cmdbench_plugin),
    CMDBENCH_ABI_MAJOR,
    CMDBENCH_ABI_MINOR,
    "tcp-socket",
    "0.1.0",
    "Kernel TCP sockets: the baseline transport",
    sizeof(transports) / sizeof(transports[0]),
    transports,
    sizeof(tests) / sizeof(tests[0]),
    tests,
};

} // namespace

CMDBENCH_PLUGIN_ENTRY {
    return &plugin;
}

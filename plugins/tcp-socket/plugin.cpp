// Descriptor and entry point of plugin "tcp-socket".
#include "sock_steps.hpp"
#include "tcp_transport.hpp"

#include <cmdbench/plugin-support/descriptors.hpp>

CMDBENCH_PLUGIN_ENTRY {
    static const cmdbench_transport *const transports[] = {&cmdbench::tcp_socket::tcp_transport()};
    static const cmdbench_test *const tests[] = {&cmdbench::tcp_socket::sock_steps_test()};
    static const cmdbench_plugin plugin = cmdbench::support::plugin_descriptor(
        {"tcp-socket", "0.1.0", "Kernel TCP sockets: the baseline transport"}, transports, tests);
    return &plugin;
}

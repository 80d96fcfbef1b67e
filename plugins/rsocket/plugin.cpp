// Descriptor and entry point of plugin "rsocket".
#include "rsocket_transport.hpp"

#include <cmdbench/plugin-support/descriptors.hpp>

CMDBENCH_PLUGIN_ENTRY {
    static const cmdbench_transport *const transports[] = {
        &cmdbench::rsocket_plugin::rsocket_transport()};
    static const cmdbench_plugin plugin = cmdbench::support::plugin_descriptor(
        {"rsocket", "0.1.0", "RDMA stream sockets through librdmacm's rsocket API"}, transports);
    return &plugin;
}

// Descriptor and entry point of plugin "rsocket".
#include "rsocket_transport.hpp"

#include <cmdbench/plugin.h>

namespace {

const cmdbench_transport *const transports[] = {&rsocket_plugin::rsocket_transport()};

const cmdbench_plugin plugin = {
    sizeof(cmdbench_plugin),
    CMDBENCH_ABI_MAJOR,
    CMDBENCH_ABI_MINOR,
    "rsocket",
    "0.1.0",
    "RDMA stream sockets through librdmacm's rsocket API",
    sizeof(transports) / sizeof(transports[0]),
    transports,
    0,
    nullptr,
};

} // namespace

CMDBENCH_PLUGIN_ENTRY {
    return &plugin;
}

// The transport table `cmdbench rstream` runs on: the plugin's, with what
// rstream does and the plugins do not.
#ifndef CMDBENCH_RSTREAM_TRANSPORT_HPP
#define CMDBENCH_RSTREAM_TRANSPORT_HPP

#include <cmdbench/plugin.h>

namespace cmdbench::rstream_frontend {

struct TransportAdditions {
    // -k: after each socket is configured, print rstream's "Keepalive: ON"
    // and "  time: N" lines on stdout (read back from the socket).
    bool keepalive_lines = false;
    // -T s / -T f over "tcp": make and accept sockets with plain socket() and
    // accept(), as rstream does, so that librspreload (rdma-core's
    // LD_PRELOAD library, with RDMAV_FORK_SAFE=1 for fork mode) can take
    // them over; it leaves SOCK_CLOEXEC sockets and accept4 to the kernel.
    bool plain_socket_calls = false;
};

// `plugin` itself when nothing is added, else a process-wide copy with the
// additions (one per process: `cmdbench rstream` runs one transport).
const cmdbench_transport *rstream_transport(const cmdbench_transport *plugin,
                                            const TransportAdditions &add);

} // namespace cmdbench::rstream_frontend

#endif

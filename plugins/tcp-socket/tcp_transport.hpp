// Transport "tcp": the cmdbench_transport table over kernel BSD sockets.
#ifndef CMDBENCH_TCP_TRANSPORT_HPP
#define CMDBENCH_TCP_TRANSPORT_HPP

#include <cmdbench/plugin.h>

namespace cmdbench::tcp_socket {

// The static descriptor of transport "tcp" (lives as long as the plugin).
const cmdbench_transport &tcp_transport();

} // namespace cmdbench::tcp_socket

#endif

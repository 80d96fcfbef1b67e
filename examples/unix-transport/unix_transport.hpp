// Transport "unix": cmdbench's stream transport table over AF_UNIX stream
// sockets, a third-party-style example (see README.md).
#ifndef UNIX_TRANSPORT_HPP
#define UNIX_TRANSPORT_HPP

#include <cmdbench/plugin.h>

namespace unix_transport {

// The static descriptor of transport "unix" (lives as long as the plugin).
const cmdbench_transport &unix_transport();

} // namespace unix_transport

#endif

// How the "unix" transport turns the ports that tests speak into socket
// files, and back.
//
// Tests written for cmdbench think in host:port (the stream tests bind port
// 0, read the port back with getsockname and announce it to the client). An
// AF_UNIX socket has a path instead, so this transport numbers its paths:
// port N is the file <socket_dir>/cmdbench-unix-N.sock, and getsockname
// reports such a socket as the loopback address 127.0.0.1:N. The mapping is
// the transport's own business: the host and the tests never see a path.
#ifndef UNIX_TRANSPORT_SOCKET_PATHS_HPP
#define UNIX_TRANSPORT_SOCKET_PATHS_HPP

#include <cstdint>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>

namespace unix_transport {

// The socket file for `port` in `dir`. Returns false when the path does not
// fit into sockaddr_un (108 bytes on Linux).
bool path_for_port(const std::string &dir, uint16_t port, sockaddr_un &out, socklen_t &len);

// The port a path was made from, or -1 for a path this transport did not
// make (or an unnamed socket).
int port_of_path(const sockaddr_un &addr, socklen_t len);

// bind() for a numbered path. Port 0 picks a free number; a file left
// behind by a process that died is removed and the bind retried. The path
// bound goes to `bound`, for close() to remove. BSD conventions: returns 0,
// or -1 with errno.
int bind_numbered(int sock, const sockaddr_un &addr, socklen_t len, sockaddr_un &bound);

} // namespace unix_transport

#endif

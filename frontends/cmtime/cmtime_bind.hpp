// The local bind address of an instance: -b as given, or the first IPv4 or
// IPv6 address of the -B interface (cmtime's getifaddrs() rule).
#pragma once
#include "cmtime_options.hpp"

#include <string>
#include <sys/socket.h>

namespace cmdbench::cmtime_frontend {

struct BindAddress {
    std::string text;
    sockaddr_storage addr{}; // port 0
    socklen_t len = 0;
};

// Throws std::runtime_error ("Failed to find IP address for interface: X").
// `announce`: print cmtime's "Picking source address ..." line for -B.
BindAddress bind_address(const Options &options, bool announce = true);

} // namespace cmdbench::cmtime_frontend

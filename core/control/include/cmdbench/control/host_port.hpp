// HOST[:PORT] as given on the command line (--server) or in a scenario
// (`server = "..."`): checked before anything connects, so a typo is a
// usage error rather than a connection to some other port.
#pragma once
#include "cmdbench/base/expected.hpp"

#include <cstdint>
#include <string>

namespace cmdbench {

struct HostPort {
    std::string host;
    uint16_t port = 0;
};

// What the forms are, for messages: "HOST, HOST:PORT, [IPV6] or [IPV6]:PORT
// with PORT in [1, 65535]".
extern const char *const kHostPortForms;

// Accepts [v6]:port, [v6], host:port, a bare host and a bare v6 address
// (two or more colons, no port); port is 1-65535, digits only. `default_port`
// is used when none is given. Returns the host and port, or what is wrong.
Expected<HostPort> parse_host_port(const std::string &spec, uint16_t default_port);

// Whether `host` names every address rather than one: "*", or a numeric
// address that is 0.0.0.0 or :: however it is spelled ("0", "0x0", "0.0",
// "::0"). Host names are not looked up.
bool names_every_address(const std::string &host);

// A port number alone: digits only, 1-65535. Returns it, or what is wrong.
Expected<uint16_t> parse_port(const std::string &text);

} // namespace cmdbench

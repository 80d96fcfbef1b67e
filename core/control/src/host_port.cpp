#include "cmdbench/control/host_port.hpp"

#include <netdb.h>
#include <netinet/in.h>

namespace cmdbench {

const char *const kHostPortForms = "HOST, HOST:PORT, [IPV6] or [IPV6]:PORT with PORT in [1, 65535]";

Expected<uint16_t> parse_port(const std::string &text) {
    if (text.empty()) return unexpected("the port is empty");
    // Digits only: stoul would take "+7", " 7" or "7x" and wrap 99999.
    unsigned long value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return unexpected("port '" + text + "' is not a number");
        value = value * 10 + unsigned(c - '0');
        if (value > 65535) return unexpected("port " + text + " is out of range");
    }
    if (value == 0) return unexpected("port 0 is out of range");
    return uint16_t(value);
}

Expected<HostPort> parse_host_port(const std::string &spec, uint16_t default_port) {
    HostPort hp;
    hp.port = default_port;
    std::string port_text;
    bool has_port = false;
    if (!spec.empty() && spec[0] == '[') {
        const size_t close = spec.find(']');
        if (close == std::string::npos) return unexpected("'[' without a closing ']'");
        hp.host = spec.substr(1, close - 1);
        if (hp.host.find_first_of("[]") != std::string::npos) return unexpected("stray '[' or ']'");
        const std::string rest = spec.substr(close + 1);
        if (!rest.empty()) {
            if (rest[0] != ':') return unexpected("expected ':PORT' after ']', got '" + rest + "'");
            has_port = true;
            port_text = rest.substr(1);
        }
    } else {
        if (spec.find_first_of("[]") != std::string::npos) return unexpected("stray '[' or ']'");
        const size_t colon = spec.find(':');
        // Two or more colons: a bare IPv6 address, which takes no port.
        if (colon != std::string::npos && spec.find(':', colon + 1) == std::string::npos) {
            hp.host = spec.substr(0, colon);
            has_port = true;
            port_text = spec.substr(colon + 1);
        } else {
            hp.host = spec;
        }
    }
    if (has_port) {
        Expected<uint16_t> port = parse_port(port_text);
        if (!port) return unexpected(port.error());
        hp.port = *port;
    }
    if (hp.host.empty()) return unexpected("the host is empty");
    return hp;
}

bool names_every_address(const std::string &host) {
    if (host == "*") return true;
    addrinfo hints{};
    hints.ai_flags = AI_NUMERICHOST;
    addrinfo *list = nullptr;
    if (getaddrinfo(host.c_str(), nullptr, &hints, &list) != 0) return false;
    bool every = false;
    for (const addrinfo *a = list; a && !every; a = a->ai_next) {
        if (a->ai_family == AF_INET)
            every =
                reinterpret_cast<const sockaddr_in *>(a->ai_addr)->sin_addr.s_addr == INADDR_ANY;
        else if (a->ai_family == AF_INET6) {
            const in6_addr &v6 = reinterpret_cast<const sockaddr_in6 *>(a->ai_addr)->sin6_addr;
            // ::ffff:0.0.0.0 is the IPv4 wildcard in IPv6 clothing.
            every =
                IN6_IS_ADDR_UNSPECIFIED(&v6) || (IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr32[3] == 0);
        }
    }
    freeaddrinfo(list);
    return every;
}

} // namespace cmdbench

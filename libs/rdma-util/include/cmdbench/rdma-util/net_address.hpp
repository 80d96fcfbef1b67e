// Addresses of this machine's network interfaces (getifaddrs) and of peers
// (getaddrinfo), as RDMA tests and front ends look them up.
#ifndef CMDBENCH_RDMA_UTIL_NET_ADDRESS_HPP
#define CMDBENCH_RDMA_UTIL_NET_ADDRESS_HPP

#include <cstdint>
#include <string>
#include <sys/socket.h>
#include <vector>

namespace cmdbench::rdma {

// One IPv4 or IPv6 address of one interface.
struct InterfaceAddress {
    std::string interface;
    unsigned flags = 0; // IFF_UP, IFF_LOOPBACK, ...
    sockaddr_storage addr{};
    std::string text;        // numeric, without scope
    bool link_local = false; // IPv6 fe80::/10: needs a scope the peers do not know
};

// Every IPv4 and IPv6 address, in getifaddrs order; false when getifaddrs fails.
bool interface_addresses(std::vector<InterfaceAddress> &out);

// The first IPv4 address of `ifname`, else its first IPv6 address that is not
// link-local; "" when it has none.
std::string interface_address(const std::string &ifname);

bool is_loopback_host(const std::string &host);

// The first address of node:port (a null node: the wildcard when passive);
// false with getaddrinfo's reason in `why`.
bool resolve_ip(const char *node, uint16_t port, bool passive, sockaddr_storage &out,
                std::string &why);

} // namespace cmdbench::rdma

#endif

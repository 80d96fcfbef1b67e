#include "matrix_address.hpp"

#include "cmdbench/host/machine/interface_address.hpp"
#include "cmdbench/host/run/local_node.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

namespace cmdbench {
namespace {

std::string numeric(const sockaddr *a, socklen_t len) {
    char host[NI_MAXHOST];
    if (getnameinfo(a, len, host, sizeof host, nullptr, 0, NI_NUMERICHOST) != 0) return "";
    return host;
}

} // namespace

std::string matrix_listen_address(const MatrixSpec &m, const std::string &node) {
    if (!m.address.empty()) return m.address;
    if (!m.interface.empty()) return interface_address(m.interface);
    if (!m.device.empty())
        return rdma_device_address(
            "/sys", m.device,
            [](const std::string &ifname) {
                try {
                    return interface_address(ifname);
                } catch (const MatrixAddressError &) {
                    return std::string();
                }
            },
            ibv_gid_table);
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *list = nullptr;
    if (node.empty() || getaddrinfo(node.c_str(), nullptr, &hints, &list) != 0 || !list)
        return kLoopbackNode;
    std::string v4, v6;
    for (addrinfo *a = list; a; a = a->ai_next) {
        if (a->ai_family == AF_INET && v4.empty()) v4 = numeric(a->ai_addr, a->ai_addrlen);
        if (a->ai_family == AF_INET6 && v6.empty()) v6 = numeric(a->ai_addr, a->ai_addrlen);
    }
    freeaddrinfo(list);
    if (!v4.empty()) return v4;
    return v6.empty() ? kLoopbackNode : v6;
}

std::string published_address(const std::string &host, uint16_t port) {
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

bool is_loopback_address(const std::string &address) {
    in_addr v4{};
    if (inet_pton(AF_INET, address.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
    in6_addr v6{};
    if (inet_pton(AF_INET6, address.c_str(), &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
    return address == "localhost";
}

} // namespace cmdbench

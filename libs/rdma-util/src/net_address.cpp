// Interface and peer addresses (see net_address.hpp).
#include "cmdbench/rdma-util/net_address.hpp"

#include <arpa/inet.h>
#include <cstring>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>

namespace cmdbench::rdma {

bool interface_addresses(std::vector<InterfaceAddress> &out) {
    ifaddrs *list = nullptr;
    if (getifaddrs(&list) != 0) return false;
    for (ifaddrs *i = list; i; i = i->ifa_next) {
        if (!i->ifa_addr) continue;
        const int family = i->ifa_addr->sa_family;
        if (family != AF_INET && family != AF_INET6) continue;
        InterfaceAddress a;
        a.interface = i->ifa_name;
        a.flags = i->ifa_flags;
        const bool v4 = family == AF_INET;
        std::memcpy(&a.addr, i->ifa_addr, v4 ? sizeof(sockaddr_in) : sizeof(sockaddr_in6));
        const void *raw = v4 ? static_cast<const void *>(
                                   &reinterpret_cast<const sockaddr_in *>(i->ifa_addr)->sin_addr)
                             : static_cast<const void *>(
                                   &reinterpret_cast<const sockaddr_in6 *>(i->ifa_addr)->sin6_addr);
        char text[INET6_ADDRSTRLEN] = "";
        inet_ntop(family, raw, text, sizeof text);
        a.text = text;
        a.link_local = !v4 && IN6_IS_ADDR_LINKLOCAL(
                                  &reinterpret_cast<const sockaddr_in6 *>(&a.addr)->sin6_addr);
        out.push_back(a);
    }
    freeifaddrs(list);
    return true;
}

std::string interface_address(const std::string &ifname) {
    std::vector<InterfaceAddress> all;
    if (!interface_addresses(all)) return "";
    std::string v6;
    for (const InterfaceAddress &a : all) {
        if (a.interface != ifname) continue;
        if (a.addr.ss_family == AF_INET) return a.text;
        if (v6.empty() && !a.link_local) v6 = a.text;
    }
    return v6;
}

bool is_loopback_host(const std::string &host) {
    return host.rfind("127.", 0) == 0 || host == "::1" || host == "localhost";
}

bool resolve_ip(const char *node, uint16_t port, bool passive, sockaddr_storage &out,
                std::string &why) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = passive ? AI_PASSIVE : 0;
    addrinfo *found = nullptr;
    const std::string service = std::to_string(port);
    const int rc = getaddrinfo(node, service.c_str(), &hints, &found);
    if (rc != 0) {
        why = gai_strerror(rc);
        return false;
    }
    out = sockaddr_storage{};
    std::memcpy(&out, found->ai_addr, found->ai_addrlen);
    freeaddrinfo(found);
    return true;
}

} // namespace cmdbench::rdma

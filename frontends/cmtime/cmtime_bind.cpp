// Bind address selection (see cmtime_bind.hpp).
#include "cmtime_bind.hpp"

#include "cmdbench/cmtime/sock_engine.hpp"

#include <arpa/inet.h>
#include <cstdio>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdexcept>

namespace cmtime_frontend {

BindAddress bind_address(const Options &o, bool announce) {
    BindAddress b;
    b.text = o.bind;
    if (!o.bind_interface.empty()) {
        ifaddrs *list = nullptr;
        if (getifaddrs(&list) != 0) throw std::runtime_error("getifaddrs failed");
        for (ifaddrs *i = list; i && b.text.empty(); i = i->ifa_next) {
            if (!i->ifa_addr || o.bind_interface != i->ifa_name) continue;
            const int family = i->ifa_addr->sa_family;
            char host[INET6_ADDRSTRLEN] = "";
            if (family == AF_INET)
                inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in *>(i->ifa_addr)->sin_addr, host,
                          sizeof host);
            else if (family == AF_INET6)
                inet_ntop(AF_INET6, &reinterpret_cast<sockaddr_in6 *>(i->ifa_addr)->sin6_addr, host,
                          sizeof host);
            b.text = host;
        }
        freeifaddrs(list);
        if (b.text.empty())
            throw std::runtime_error("Failed to find IP address for interface: " +
                                     o.bind_interface);
        if (announce)
            std::printf("Picking source address %s for interface %s\n", b.text.c_str(),
                        o.bind_interface.c_str());
    }
    b.addr = cmtime::resolve_tcp(b.text.c_str(), "0", true, b.len);
    return b;
}

} // namespace cmtime_frontend

// `local_node` hook: an address of this machine that an RDMA device owns, so
// `cmdbench run` without --server meets its local server there (rsockets over
// 127.0.0.1 have no device to use). The test is librdmacm's own: an address
// binds a CM id to a device (id->verbs set) only if an RDMA port carries it.
#include "rsocket_transport.hpp"

#include <arpa/inet.h>
#include <cstring>
#include <initializer_list>
#include <ifaddrs.h>
#include <net/if.h>
#include <rdma/rdma_cma.h>

namespace rsocket_plugin {
namespace {

bool owned_by_rdma_device(rdma_event_channel *channel, sockaddr *addr) {
    rdma_cm_id *id = nullptr;
    if (rdma_create_id(channel, &id, nullptr, RDMA_PS_TCP) != 0) return false;
    bool owned = rdma_bind_addr(id, addr) == 0 && id->verbs != nullptr;
    rdma_destroy_id(id);
    return owned;
}

} // namespace

int local_node(cmdbench_ctx *, const cmdbench_host *, char *buf, size_t cap) {
    ifaddrs *list = nullptr;
    if (getifaddrs(&list) != 0) return -1;
    rdma_event_channel *channel = rdma_create_event_channel();
    int rc = -1;
    // IPv4 first: rstream and cmtime users name IPv4 addresses, and an IPv6
    // link-local address would need a scope.
    for (int family : {AF_INET, AF_INET6}) {
        for (ifaddrs *ifa = list; channel && ifa && rc != 0; ifa = ifa->ifa_next) {
            if (!ifa->ifa_addr || ifa->ifa_addr->sa_family != family) continue;
            if (!(ifa->ifa_flags & IFF_UP) || (ifa->ifa_flags & IFF_LOOPBACK)) continue;
            if (family == AF_INET6 &&
                IN6_IS_ADDR_LINKLOCAL(&reinterpret_cast<sockaddr_in6 *>(ifa->ifa_addr)->sin6_addr))
                continue;
            if (!owned_by_rdma_device(channel, ifa->ifa_addr)) continue;
            const void *raw =
                family == AF_INET
                    ? static_cast<const void *>(
                          &reinterpret_cast<sockaddr_in *>(ifa->ifa_addr)->sin_addr)
                    : static_cast<const void *>(
                          &reinterpret_cast<sockaddr_in6 *>(ifa->ifa_addr)->sin6_addr);
            if (inet_ntop(family, raw, buf, socklen_t(cap))) rc = 0;
        }
    }
    if (channel) rdma_destroy_event_channel(channel);
    freeifaddrs(list);
    return rc;
}

} // namespace rsocket_plugin

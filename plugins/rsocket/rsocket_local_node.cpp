// `local_node` hook: an address of this machine that an RDMA device owns, so
// `cmdbench run` without --server meets its local server there (rsockets over
// 127.0.0.1 have no device to use). The test is librdmacm's own: an address
// binds a CM id to a device (id->verbs set) only if an RDMA port carries it.
#include "rsocket_transport.hpp"

#include <cmdbench/rdma-util/net_address.hpp>
#include <cstring>
#include <initializer_list>
#include <net/if.h>
#include <rdma/rdma_cma.h>
#include <vector>

namespace cmdbench::rsocket_plugin {
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
    std::vector<cmdbench::rdma::InterfaceAddress> all;
    if (!cmdbench::rdma::interface_addresses(all)) return -1;
    rdma_event_channel *channel = rdma_create_event_channel();
    int rc = -1;
    // IPv4 first: rstream and cmtime users name IPv4 addresses, and an IPv6
    // link-local address would need a scope.
    for (int family : {AF_INET, AF_INET6}) {
        for (auto &a : all) {
            if (!channel || rc == 0) break;
            if (a.addr.ss_family != family || a.link_local) continue;
            if (!(a.flags & IFF_UP) || (a.flags & IFF_LOOPBACK)) continue;
            if (!owned_by_rdma_device(channel, reinterpret_cast<sockaddr *>(&a.addr))) continue;
            if (a.text.size() < cap) {
                std::memcpy(buf, a.text.c_str(), a.text.size() + 1);
                rc = 0;
            }
        }
    }
    if (channel) rdma_destroy_event_channel(channel);
    return rc;
}

} // namespace cmdbench::rsocket_plugin

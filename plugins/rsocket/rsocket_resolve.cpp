// `resolve` hook of transport "rsocket": getaddrinfo by
// default, rdma_getaddrinfo with `resolver = "rdma"` (rstream -T r), and IB
// GIDs as AF_IB addresses with `address_format = "gid"` (rstream -f gid).
// Fresh hints for every lookup (rstream quirk 6).
#include "rsocket_transport.hpp"

#include <cerrno>
#include <cmdbench/plugin-support/run_error.hpp>
#include <cstring>
#include <netdb.h>
#include <rdma/rdma_cma.h>
#include <string>

namespace cmdbench::rsocket_plugin {
namespace {

// The run's settings; the declared defaults where the host has none.
Settings settings_or_defaults(cmdbench_ctx *ctx, const cmdbench_host *host) {
    try {
        return transport_params().read(cmdbench::support::ParamReader(host, ctx, "rsocket"));
    } catch (const cmdbench::support::RunError &) {
        return transport_params().defaults();
    }
}

bool copy_out(const sockaddr *from, socklen_t len, sockaddr_storage *addr, socklen_t *addrlen) {
    if (!from || len == 0 || len > sizeof(sockaddr_storage)) return false;
    std::memcpy(addr, from, len);
    *addrlen = len;
    return true;
}

int with_getaddrinfo(cmdbench_ctx *ctx, const cmdbench_host *host, const char *node,
                     const char *service, bool passive, bool numeric, sockaddr_storage *addr,
                     socklen_t *addrlen) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = (passive ? AI_PASSIVE : 0) | (numeric ? AI_NUMERICHOST : 0);
    addrinfo *found = nullptr;
    int rc = getaddrinfo(node, service, &hints, &found);
    if (rc != 0) {
        std::string why =
            rc == EAI_SYSTEM ? cmdbench::support::errno_text(errno) : gai_strerror(rc);
        host->set_error(ctx, ("getaddrinfo: " + why).c_str());
        return -1;
    }
    bool ok = copy_out(found->ai_addr, found->ai_addrlen, addr, addrlen);
    freeaddrinfo(found);
    if (!ok) host->set_error(ctx, "getaddrinfo: address does not fit a sockaddr_storage");
    return ok ? 0 : -1;
}

int with_rdma_getaddrinfo(cmdbench_ctx *ctx, const cmdbench_host *host, const char *node,
                          const char *service, bool passive, bool gid, sockaddr_storage *addr,
                          socklen_t *addrlen) {
    rdma_addrinfo hints{};
    hints.ai_port_space = RDMA_PS_TCP;
    hints.ai_flags = passive ? RAI_PASSIVE : 0;
    if (gid) {
        hints.ai_flags |= RAI_NUMERICHOST | RAI_FAMILY;
        hints.ai_family = AF_IB;
    }
    rdma_addrinfo *found = nullptr;
    int rc = rdma_getaddrinfo(node, service, &hints, &found);
    if (rc != 0) {
        // librdmacm returns -1 with errno set to an errno value, or to
        // getaddrinfo's (negative) EAI code when the name lookup failed.
        const int err = rc == -1 ? errno : rc;
        std::string why = err < 0 ? gai_strerror(err) : cmdbench::support::errno_text(err);
        host->set_error(ctx, ("rdma_getaddrinfo: " + why).c_str());
        return -1;
    }
    const sockaddr *sa = passive ? found->ai_src_addr : found->ai_dst_addr;
    socklen_t len = passive ? found->ai_src_len : found->ai_dst_len;
    bool ok = copy_out(sa, len, addr, addrlen);
    // The path record (if the IB ACM service gave one) goes to the client
    // socket made for this address (rstream: RDMA_ROUTE before connect).
    if (ok && !passive) remember_route(ctx, found->ai_route, found->ai_route_len);
    rdma_freeaddrinfo(found);
    if (!ok) host->set_error(ctx, "rdma_getaddrinfo: no usable address in the result");
    return ok ? 0 : -1;
}

} // namespace

int resolve(cmdbench_ctx *ctx, const cmdbench_host *host, const char *node, const char *service,
            int passive, sockaddr_storage *addr, socklen_t *addrlen) {
    try {
        const Settings s = settings_or_defaults(ctx, host);
        const bool gid = s.address_format == AddressFormat::Gid;
        if (gid || s.resolver == Resolver::Rdma)
            return with_rdma_getaddrinfo(ctx, host, node, service, passive != 0, gid, addr,
                                         addrlen);
        return with_getaddrinfo(ctx, host, node, service, passive != 0,
                                s.address_format == AddressFormat::Ip, addr, addrlen);
    } catch (...) {
        host->set_error(ctx, "rsocket resolve: out of memory");
        return -1;
    }
}

} // namespace cmdbench::rsocket_plugin

// Transport "rsocket": the cmdbench_transport table over librdmacm rsockets.
#ifndef CMDBENCH_RSOCKET_TRANSPORT_HPP
#define CMDBENCH_RSOCKET_TRANSPORT_HPP

#include <cmdbench/plugin-support/param_spec.hpp>
#include <cmdbench/plugin.h>
#include <cstddef>
#include <cstdint>

namespace cmdbench::rsocket_plugin {

// The static descriptor of transport "rsocket" (lives as long as the plugin).
const cmdbench_transport &rsocket_transport();

enum class Resolver { Getaddrinfo, Rdma };
enum class AddressFormat { Name, Ip, Gid };

// The transport's parameters for one run.
struct Settings {
    int64_t buffer_size, inline_size, sq_size, rq_size, iomap_size, keepalive;
    Resolver resolver;
    AddressFormat address_format;
};

// The transport's declared parameters, bound to Settings (rsocket_options.cpp).
const cmdbench::support::ParamSpec<Settings> &transport_params();

// `configure` hook: rstream's set_options() for rsockets (rsocket_options.cpp).
int configure(cmdbench_ctx *ctx, const cmdbench_host *host, int sock, uint32_t stage,
              uint32_t hint);

// `resolve` hook: getaddrinfo, or rdma_getaddrinfo for `resolver = "rdma"`
// and GID addresses (rsocket_resolve.cpp).
int resolve(cmdbench_ctx *ctx, const cmdbench_host *host, const char *node, const char *service,
            int passive, sockaddr_storage *addr, socklen_t *addrlen);

// `local_node` hook: an address an RDMA device owns (rsocket_local_node.cpp).
int local_node(cmdbench_ctx *ctx, const cmdbench_host *host, char *buf, size_t cap);

// rstream -T r: keep the path record of an active rdma_getaddrinfo lookup
// (none: route NULL) for the next client socket of this thread and run, and
// give it to that socket with RDMA_ROUTE (rsocket_route.cpp). apply_route
// returns 0, or -1 with set_error.
void remember_route(cmdbench_ctx *ctx, const void *route, size_t len);
int apply_route(cmdbench_ctx *ctx, const cmdbench_host *host, int sock);

} // namespace cmdbench::rsocket_plugin

#endif

// rstream -T r's route hand-over: when rdma_getaddrinfo
// returns a path record for the server (from the IB ACM service), the client
// socket is given it with RDMA_ROUTE, so the RDMA CM uses it instead of
// resolving a route. resolve() and configure() are separate transport hooks
// called in turn by the thread that connects, so the record waits for the
// next client socket in thread-local storage, tagged with its run.
#include "rsocket_transport.hpp"

#include <cerrno>
#include <cmdbench/plugin-support/run_error.hpp>
#include <cstring>
#include <rdma/rsocket.h>
#include <string>
#include <vector>

namespace cmdbench::rsocket_plugin {
namespace {

struct PendingRoute {
    cmdbench_ctx *ctx = nullptr;
    std::vector<unsigned char> data;
};

thread_local PendingRoute pending;

} // namespace

void remember_route(cmdbench_ctx *ctx, const void *route, size_t len) {
    pending.ctx = ctx;
    const auto *bytes = static_cast<const unsigned char *>(route);
    pending.data.assign(bytes, bytes + (route ? len : 0));
}

int apply_route(cmdbench_ctx *ctx, const cmdbench_host *host, int sock) {
    if (pending.ctx != ctx || pending.data.empty()) return 0;
    std::vector<unsigned char> route;
    route.swap(pending.data); // one socket per lookup
    if (rsetsockopt(sock, SOL_RDMA, RDMA_ROUTE, route.data(),
                    static_cast<socklen_t>(route.size())) == 0)
        return 0;
    host->set_error(
        ctx,
        (std::string("rsetsockopt RDMA_ROUTE: ") + cmdbench::support::errno_text(errno)).c_str());
    return -1;
}

} // namespace cmdbench::rsocket_plugin

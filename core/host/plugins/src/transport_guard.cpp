#include "cmdbench/host/plugins/transport_guard.hpp"

#include <cerrno>
#include <cstring>

namespace cmdbench {
namespace {

std::string error_now(cmdbench_ctx *ctx) {
    std::lock_guard<std::mutex> lock(ctx->mu);
    return ctx->error;
}

// A hook said nothing: say which one failed. `err` is errno after the call,
// which the host cleared before it, so a stale errno never shows.
void note_silent_failure(cmdbench_ctx *ctx, const cmdbench_transport &t, const char *hook,
                         const std::string &before, int err) {
    std::lock_guard<std::mutex> lock(ctx->mu);
    if (ctx->error != before && !ctx->error.empty()) return; // it did say why
    ctx->error = std::string("transport '") + t.name + "' hook '" + hook + "' failed";
    ctx->error += err ? std::string(": ") + std::strerror(err) : std::string(" without saying why");
}

// Runs a hook with errno cleared and notes a silent failure.
template <class Call>
int guarded(cmdbench_ctx *ctx, const cmdbench_transport &t, const char *hook, Call call) {
    const std::string before = error_now(ctx);
    errno = 0;
    int rc = call();
    int err = errno;
    if (rc != 0 && rc != CMDBENCH_ERR_SKIP) note_silent_failure(ctx, t, hook, before, err);
    return rc;
}

int configure_hook(cmdbench_ctx *ctx, const cmdbench_host *host, int sock, uint32_t stage,
                   uint32_t hint) {
    const cmdbench_transport &t = *ctx->transport;
    return guarded(ctx, t, "configure", [&] { return t.configure(ctx, host, sock, stage, hint); });
}

int resolve_hook(cmdbench_ctx *ctx, const cmdbench_host *host, const char *node,
                 const char *service, int passive, sockaddr_storage *addr, socklen_t *len) {
    const cmdbench_transport &t = *ctx->transport;
    return guarded(ctx, t, "resolve",
                   [&] { return t.resolve(ctx, host, node, service, passive, addr, len); });
}

} // namespace

cmdbench_transport guarded_transport(const cmdbench_transport &real) {
    cmdbench_transport t = real;
    if (real.configure) t.configure = configure_hook;
    if (real.resolve) t.resolve = resolve_hook;
    // local_node returns -1 for "any address will do": not a failure.
    return t;
}

int guarded_probe(const cmdbench_transport &real, cmdbench_ctx *ctx) {
    return guarded(ctx, real, "probe", [&] { return real.probe(ctx, host_services()); });
}

} // namespace cmdbench

#include "ibv_port_mtu.hpp"

#include "cmdbench/report/path_context.hpp"

#if __has_include(<infiniband/verbs.h>)
#include <dlfcn.h>
#include <infiniband/verbs.h>
#include <type_traits>
#define CMDBENCH_HAVE_VERBS_H 1
#endif

namespace cmdbench {

#ifdef CMDBENCH_HAVE_VERBS_H
namespace {

// libibverbs is loaded at run time, not linked: the host runs without it
// (only the RDMA plugins need it), and then the MTU is unknown. It stays
// loaded, as the plugins keep it anyway and its providers do not unload.
struct Verbs {
    decltype(&::ibv_get_device_list) get_device_list = nullptr;
    decltype(&::ibv_free_device_list) free_device_list = nullptr;
    decltype(&::ibv_get_device_name) get_device_name = nullptr;
    decltype(&::ibv_open_device) open_device = nullptr;
    decltype(&::ibv_close_device) close_device = nullptr;
    // The exported ibv_query_port, for contexts without the query_port op.
    int (*query_port)(ibv_context *, uint8_t, _compat_ibv_port_attr *) = nullptr;
    bool loaded = false;

    Verbs() {
        void *lib = dlopen("libibverbs.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib) return;
        const auto sym = [lib](auto &fn, const char *name) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
            return fn != nullptr;
        };
        loaded = sym(get_device_list, "ibv_get_device_list") &&
                 sym(free_device_list, "ibv_free_device_list") &&
                 sym(get_device_name, "ibv_get_device_name") &&
                 sym(open_device, "ibv_open_device") && sym(close_device, "ibv_close_device") &&
                 sym(query_port, "ibv_query_port");
    }
};

const Verbs &verbs() {
    static const Verbs v;
    return v;
}

// What verbs.h's inline ibv_query_port does, without its link-time symbol.
int query_port(const Verbs &v, ibv_context *ctx, uint8_t port, ibv_port_attr &attr) {
    attr = {};
    if (verbs_context *vctx = verbs_get_ctx_op(ctx, query_port))
        return vctx->query_port(ctx, port, &attr, sizeof attr);
    return v.query_port(ctx, port, reinterpret_cast<_compat_ibv_port_attr *>(&attr));
}

} // namespace

std::string ibv_active_mtu(const std::string &device, unsigned port) {
    const Verbs &v = verbs();
    if (!v.loaded || port == 0 || port > 255) return kUnknown;
    int n = 0;
    ibv_device **list = v.get_device_list(&n);
    if (!list) return kUnknown;
    std::string mtu = kUnknown;
    for (int i = 0; i < n; ++i) {
        const char *name = v.get_device_name(list[i]);
        if (!name || device != name) continue;
        if (ibv_context *ctx = v.open_device(list[i])) {
            ibv_port_attr attr;
            if (query_port(v, ctx, uint8_t(port), attr) == 0 && attr.active_mtu >= IBV_MTU_256 &&
                attr.active_mtu <= IBV_MTU_4096)
                mtu = std::to_string(128 << attr.active_mtu); // IBV_MTU_256 is 1
            v.close_device(ctx);
        }
        break;
    }
    v.free_device_list(list);
    return mtu;
}
#else
std::string ibv_active_mtu(const std::string &, unsigned) {
    return kUnknown;
}
#endif

} // namespace cmdbench

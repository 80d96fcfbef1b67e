#include "ibv_queries.hpp"

#include "cmdbench/host/machine/gid_entries.hpp"
#include "cmdbench/report/path_context.hpp"

#if __has_include(<infiniband/verbs.h>)
#include <algorithm>
#include <cstring>
#include <dlfcn.h>
#include <infiniband/verbs.h>
#include <net/if.h>
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
    decltype(&::ibv_query_device) query_device = nullptr;
    // What verbs.h's inline ibv_query_gid_table calls (rdma-core 31 on).
    decltype(&::_ibv_query_gid_table) query_gid_table = nullptr;
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
        if (loaded) sym(query_device, "ibv_query_device");
        if (loaded) sym(query_gid_table, "_ibv_query_gid_table");
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

// Calls `fn(ctx)` with `device` opened, if it is there.
template <typename Fn> void with_device(const Verbs &v, const std::string &device, Fn fn) {
    int n = 0;
    ibv_device **list = v.get_device_list(&n);
    if (!list) return;
    for (int i = 0; i < n; ++i) {
        const char *name = v.get_device_name(list[i]);
        if (!name || device != name) continue;
        if (ibv_context *ctx = v.open_device(list[i])) {
            fn(ctx);
            v.close_device(ctx);
        }
        break;
    }
    v.free_device_list(list);
}

} // namespace

std::string ibv_active_mtu(const std::string &device, unsigned port) {
    const Verbs &v = verbs();
    if (!v.loaded || port == 0 || port > 255) return kUnknown;
    std::string mtu = kUnknown;
    with_device(v, device, [&](ibv_context *ctx) {
        ibv_port_attr attr;
        if (query_port(v, ctx, uint8_t(port), attr) == 0 && attr.active_mtu >= IBV_MTU_256 &&
            attr.active_mtu <= IBV_MTU_4096)
            mtu = std::to_string(128 << attr.active_mtu); // IBV_MTU_256 is 1
    });
    return mtu;
}

std::optional<std::vector<GidEntry>> ibv_gid_table(const std::string &device) {
    const Verbs &v = verbs();
    if (!v.loaded || !v.query_device || !v.query_gid_table) return std::nullopt;
    std::optional<std::vector<GidEntry>> out;
    with_device(v, device, [&](ibv_context *ctx) {
        ibv_device_attr dev{};
        if (v.query_device(ctx, &dev) != 0) return;
        size_t room = 0; // the call wants room for every valid entry
        for (unsigned p = 1; p <= dev.phys_port_cnt; ++p) {
            ibv_port_attr attr;
            if (query_port(v, ctx, uint8_t(p), attr) != 0) return;
            room += size_t(std::max(attr.gid_tbl_len, 0));
        }
        std::vector<ibv_gid_entry> raw(std::max<size_t>(room, 1));
        const ssize_t n = v.query_gid_table(ctx, raw.data(), raw.size(), 0, sizeof raw[0]);
        if (n < 0) return;
        out.emplace();
        for (ssize_t i = 0; i < n; ++i) {
            const ibv_gid_entry &e = raw[size_t(i)];
            GidEntry g;
            g.port = e.port_num;
            g.index = int(e.gid_index);
            std::memcpy(g.gid.data(), e.gid.raw, g.gid.size());
            // The kernel's names for them, as in sysfs gid_attrs/types.
            g.type = e.gid_type == IBV_GID_TYPE_ROCE_V2 ? "RoCE v2" : "IB/RoCE v1";
            char name[IF_NAMESIZE] = {};
            g.netdev = e.ndev_ifindex != 0 && if_indextoname(e.ndev_ifindex, name)
                           ? std::string(name)
                           : std::string(kUnknown);
            out->push_back(std::move(g));
        }
    });
    return out;
}
#else
std::string ibv_active_mtu(const std::string &, unsigned) {
    return kUnknown;
}

std::optional<std::vector<GidEntry>> ibv_gid_table(const std::string &) {
    return std::nullopt;
}
#endif

} // namespace cmdbench

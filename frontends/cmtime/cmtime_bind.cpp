// Bind address selection (see cmtime_bind.hpp).
#include "cmtime_bind.hpp"

#include "cmdbench/cmtime/sock_engine.hpp"

#include <cmdbench/rdma-util/net_address.hpp>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace cmdbench::cmtime_frontend {

BindAddress bind_address(const Options &o, bool announce) {
    BindAddress b;
    b.text = o.bind;
    if (!o.bind_interface.empty()) {
        std::vector<cmdbench::rdma::InterfaceAddress> all;
        if (!cmdbench::rdma::interface_addresses(all))
            throw std::runtime_error("getifaddrs failed");
        // cmtime's rule: the interface's first address, of either family.
        for (const auto &a : all)
            if (b.text.empty() && a.interface == o.bind_interface) b.text = a.text;
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

} // namespace cmdbench::cmtime_frontend

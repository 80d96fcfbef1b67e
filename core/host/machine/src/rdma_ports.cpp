#include "cmdbench/host/machine/rdma_ports.hpp"

#include "cmdbench/host/machine/sysfs_files.hpp"
#include "ibv_queries.hpp"

#include <algorithm>
#include <filesystem>

namespace cmdbench {

namespace fs = std::filesystem;

std::vector<RdmaPort> rdma_ports(const std::string &sysfs_root, ActiveMtu active_mtu,
                                 GidTable gid_table) {
    std::vector<RdmaPort> out;
    const fs::path ib = fs::path(sysfs_root) / "class" / "infiniband";
    for (const std::string &dev : dir_entries(ib)) {
        const std::vector<GidEntry> gids = gid_entries(sysfs_root, dev, gid_table);
        for (const std::string &p : numbered_entries(ib / dev / "ports")) {
            RdmaPort port;
            const unsigned n = unsigned(std::stoul(p));
            port.device = read_rdma_port(sysfs_root, dev, n);
            if (active_mtu) port.device.active_mtu = active_mtu(dev, n);
            port.gids = int(std::count_if(gids.begin(), gids.end(),
                                          [n](const GidEntry &g) { return g.port == n; }));
            out.push_back(std::move(port));
        }
    }
    return out;
}

std::vector<RdmaPort> local_rdma_ports() {
    return rdma_ports("/sys", ibv_active_mtu, ibv_gid_table);
}

} // namespace cmdbench

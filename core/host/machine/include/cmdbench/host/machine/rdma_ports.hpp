// Every port of every RDMA device this machine has: what a cluster
// preflight compares across nodes before anything is sent (docs/cluster.md).
#pragma once
#include "cmdbench/host/machine/link_context.hpp"

#include <string>
#include <vector>

namespace cmdbench {

struct RdmaPort {
    RdmaDevice device; // name, port, state, rate, link layer, active MTU, driver, ...
    int gids = 0;      // GID table entries in use (not all zero)
};

// From the sysfs tree at `sysfs_root`, in device and port order (GID
// tables as gid_entries.hpp reads them).
std::vector<RdmaPort> rdma_ports(const std::string &sysfs_root, ActiveMtu active_mtu = nullptr,
                                 GidTable gid_table = nullptr);
// This machine's, with each active MTU and GID table asked of libibverbs.
std::vector<RdmaPort> local_rdma_ports();

} // namespace cmdbench

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

// From the sysfs tree at `sysfs_root`, in device and port order.
std::vector<RdmaPort> rdma_ports(const std::string &sysfs_root, ActiveMtu active_mtu = nullptr);
// This machine's, with each active MTU asked of libibverbs.
std::vector<RdmaPort> local_rdma_ports();

} // namespace cmdbench

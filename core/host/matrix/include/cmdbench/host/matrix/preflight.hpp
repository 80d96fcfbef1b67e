// A cluster's RDMA ports compared node by node before anything is sent
// (`cmdbench job`, docs/cluster.md): each node's devices and ports, their
// state, rate, active MTU, link layer and GID count, against what most
// nodes have. A node that differs is what a certification run would find
// an hour later as a slow or failing link.
#pragma once
#include "cmdbench/host/machine/rdma_ports.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cmdbench {

struct NodePorts {
    std::string node;
    std::vector<RdmaPort> ports;
};

// A rank's ports as it sends them to rank 0, and back (a port it cannot
// read is left out of the result).
nlohmann::json ports_json(const std::vector<RdmaPort> &ports);
std::vector<RdmaPort> ports_from_json(const nlohmann::json &j);

struct Preflight {
    // What most nodes have, a line per port: "mlx5_0 port 1: ACTIVE,
    // 400 Gb/sec (4X NDR), MTU 4096, InfiniBand, 2 GIDs (64 of 64 nodes)".
    std::vector<std::string> majority;
    // Each difference from it, a line each: "node12: mlx5_2 port 1 is DOWN
    // where 63 of 64 nodes have ACTIVE".
    std::vector<std::string> findings;
};

// Nodes named twice (several ranks on one node) count once.
Preflight compare_nodes(const std::vector<NodePorts> &nodes);

} // namespace cmdbench

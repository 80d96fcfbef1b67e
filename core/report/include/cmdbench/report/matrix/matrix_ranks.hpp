// The data path of each rank of a matrix run (docs/matrix.md), from what its
// pairs recorded (runs[].path): the rank's side of every pair it was the
// client or the server of. Ranks alike are one entry, so 1,024 ranks on
// alike nodes are a line, not a table of 1,024 rows.
#pragma once
#include "cmdbench/report/result.hpp"

#include <string>
#include <vector>

namespace cmdbench {

struct RankPaths {
    std::vector<int> ranks;         // ascending
    std::vector<std::string> nodes; // the ranks' nodes, distinct, in rank order
    // Each "a, b" when the pairs saw several (rails); "unknown" when no pair
    // said.
    std::string devices;  // the RDMA device, else the network interface: "rxe0", "eth0"
    std::string rate;     // its link rate: "2.5 Gb/s"
    std::string mtu;      // the RDMA port's active MTU, else the interface's
    std::string cpus;     // the CPUs the test thread could run on: "0-3"
    std::string software; // software RDMA drivers ("rxe"); "" for none
};

// In the order of each entry's first rank.
std::vector<RankPaths> matrix_rank_paths(const Report &report);

// "0-3, 5" (ranks) and "n01, n02 and 6 more" (at most `listed` names).
std::string rank_list_text(const std::vector<int> &ranks);
std::string node_list_text(const std::vector<std::string> &nodes, size_t listed = 8);

} // namespace cmdbench

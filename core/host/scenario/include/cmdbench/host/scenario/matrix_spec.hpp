// The `[matrix]` table of a scenario (docs/matrix.md): how a job started by
// a launcher pairs its ranks. Ignored in single-pair mode.
#pragma once
#include "cmdbench/base/expected.hpp"
#include "cmdbench/host/scenario/matrix_schedule.hpp"
#include "cmdbench/report/matrix/matrix_result.hpp"

#include <string>

namespace cmdbench {

struct MatrixSpec {
    bool given = false; // the scenario has a [matrix] table (or --pattern set one)
    MatrixPattern pattern = MatrixPattern::AllPairs;
    bool one_pair_at_a_time = false;
    // Where each rank's server listens and what it publishes; empty = the
    // rank's node name resolved (IPv4 first), else 127.0.0.1.
    std::string address;
    // Or: each rank's own address on this network interface ("ib0"), or on
    // this RDMA device ("mlx5_0"), looked up on the rank's node. At most one
    // of address, interface and device.
    std::string interface;
    std::string device;
    // Seconds without a word from a rank before rank 0 counts it gone
    // (stopped or stuck; a killed rank is noticed at once) and the job goes
    // on without it.
    double dead_after = kDefaultDeadAfter;
    static constexpr double kDefaultDeadAfter = 10;
    static constexpr double kMinDeadAfter = 2, kMaxDeadAfter = 3600;
    // How many of each run's slowest links the reports list (bounds:
    // MatrixInfo's, which carries it to the results).
    unsigned worst_links = MatrixInfo::kDefaultWorstLinks;
};

// The table as TOML ("[matrix]\n..."), "" when not given: part of the
// effective scenario text, whose digest every rank compares.
std::string matrix_toml(const MatrixSpec &m);

// Fine when `address` can be published as a server address; else what is
// wrong with it.
Status check_matrix_address(const std::string &address);

// Fine when `name` can be a network interface or RDMA device name; else
// what is wrong with it.
Status check_matrix_name(const std::string &name);

} // namespace cmdbench

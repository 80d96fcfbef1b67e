// Rails under a launcher (docs/matrix.md, "Rails"): a run with
// rails = "all" runs every pair on each rail alone, then on all rails at
// once. Each rank found its own RDMA devices when it read the scenario; it
// tells the others where its server listens on each, and pairs meet on the
// rail of the same position on both sides.
#pragma once
#include "cmdbench/host/scenario/scenario.hpp"

#include <string>
#include <vector>

namespace cmdbench {

struct RailAddress {
    std::string label;   // the device: "mlx5_0", "rxe1"
    std::string address; // its IP address: where this rank's server listens for the rail
};

// The rails of the scenario's rails = "all" runs on this machine; empty
// when no run has them.
std::vector<RailAddress> rails_of(const Scenario &scenario);
// "2 rails (rxe0 10.77.0.1, rxe1 10.77.1.1)", "no rail", for messages.
std::string rails_text(const std::vector<RailAddress> &rails);

constexpr int kNoRail = -1;   // a run without rails
constexpr int kAllRails = -2; // every rail at once

// What the matrix runs: each run, or for a run with rails each rail's run
// then the all-rails run (rail_plan.hpp), with rails labelled as rank 0's
// (`labels`), so every pair's results of one rail share a name.
struct MatrixRuns {
    std::vector<RunSpec> specs;
    std::vector<int> rail; // per spec: its rail's position, kNoRail or kAllRails
};
MatrixRuns matrix_runs(const Scenario &scenario, const std::vector<RailAddress> &labels);

// The server's "host:port" with the host replaced by a rail's address.
std::string rail_server_address(const std::string &server, const std::string &rail_address);

} // namespace cmdbench

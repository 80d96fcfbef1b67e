// Rails under a launcher (docs/matrix.md, "Rails"): a run with
// rails = "all" runs every pair on each rail alone, then on all rails at
// once (plan/job_plan.hpp plans those parts). Each rank found its own RDMA devices when it read the
// scenario; it tells the others where its server listens on each, and pairs meet on the rail of the
// same position on both sides.
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

// The server's "host:port" with the host replaced by a rail's address.
std::string rail_server_address(const std::string &server, const std::string &rail_address);

} // namespace cmdbench

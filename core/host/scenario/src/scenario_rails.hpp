// A run's `rails` key (docs/scenarios.md, "Multi-rail runs"): a list of
// tables, each the parameters (and optionally the server) of one rail, or
// "all": every active RDMA device's address as `bind_address`.
#pragma once
#include "cmdbench/host/scenario/scenario.hpp"

#include <cmdbench/plugin.h>
#include <toml++/toml.h>

namespace cmdbench {

// The most rails one run may have.
constexpr size_t kMaxRails = 64;

// The parameters a rail may set: the run's test's and transport's (a name
// both declare is the test's, as for the run's own keys).
struct RailParams {
    const std::vector<cmdbench_param> &test;
    const std::vector<cmdbench_param> &transport;
    std::string owner; // "test 'verbs-bw'", for messages
    bool rdma = false; // the run goes over RDMA: a rail is named after its device
};

// Throws ScenarioError ("file:line:column: ...").
std::vector<Rail> read_rails(const toml::node &node, const std::string &path,
                             const RailParams &params);

} // namespace cmdbench

// Where `cmdbench run` without --server starts its local server: 127.0.0.1,
// unless a transport of the scenario needs another local address (ABI 1.1
// `local_node`: rsockets need an address an RDMA device owns).
#pragma once
#include "cmdbench/host/plugins/registry.hpp"
#include "cmdbench/host/scenario/scenario.hpp"

#include <string>

namespace cmdbench {

constexpr const char *kLoopbackNode = "127.0.0.1";

// The first address a transport of the scenario asks for (in run order),
// else kLoopbackNode. Transports that cannot run here (probe fails) are not
// asked: their runs are skipped anyway.
std::string local_meeting_node(const Scenario &scenario, const Registry &registry);

} // namespace cmdbench

// The active MTU of an RDMA port, which sysfs does not give: asked of
// libibverbs (ibv_query_port). ibv_queries.cpp also answers
// gid_entries.hpp's ibv_gid_table, with the same libibverbs loaded at run
// time.
#pragma once
#include <string>

namespace cmdbench {

// "4096", or "unknown" when libibverbs, the device or the port is not there.
std::string ibv_active_mtu(const std::string &device, unsigned port);

} // namespace cmdbench

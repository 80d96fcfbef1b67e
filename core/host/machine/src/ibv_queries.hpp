// What libibverbs answers better than sysfs: a port's active MTU (sysfs
// does not give it) and a device's valid GID entries (sysfs has a file per
// entry, valid or not).
#pragma once
#include "cmdbench/host/machine/link_context.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cmdbench {

// "4096", or "unknown" when libibverbs, the device or the port is not there.
std::string ibv_active_mtu(const std::string &device, unsigned port);

// The valid GID entries of every port of `device` (ibv_query_gid_table: one
// call), or nullopt when libibverbs or the device is not there or the call
// fails, and the caller reads sysfs.
std::optional<std::vector<GidEntry>> ibv_gid_table(const std::string &device);

} // namespace cmdbench

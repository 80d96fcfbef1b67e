// Which network interface and RDMA device carry a run's data on this side,
// from what sysfs says of them (path_context.hpp has what is recorded).
// The host works this out itself, from the address the data connection
// uses, so no plugin has to report it.
#pragma once
#include "cmdbench/host/machine/gid_entries.hpp"
#include "cmdbench/report/path_context.hpp"

#include <string>

namespace cmdbench {

// The path through `ifname` (the interface that has `address`, "" when none
// does), read from the sysfs tree at `sysfs_root` ("/sys"; tests pass a fake
// one). With `rdma`, also the RDMA device whose GID table has `address`
// (RoCE v2 before v1); for a loopback address, which no RDMA device has,
// the first device with an IP address in its GID table, as the RDMA
// plugins do.
// `active_mtu` answers for a device and port what sysfs cannot (null:
// unknown; local_path asks libibverbs).
// `gid_table` gives the GID tables (gid_entries.hpp; null: sysfs is read;
// local_path asks libibverbs).
using ActiveMtu = std::string (*)(const std::string &device, unsigned port);
SidePath describe_path(const std::string &sysfs_root, const std::string &address,
                       const std::string &ifname, bool rdma, ActiveMtu active_mtu = nullptr,
                       GidTable gid_table = nullptr);

// Port `port` of RDMA device `device` as sysfs at `sysfs_root` says (the
// active MTU stays unknown: sysfs does not give it).
RdmaDevice read_rdma_port(const std::string &sysfs_root, const std::string &device, unsigned port);

// The interface of this machine that has `address` (getifaddrs), or "".
std::string interface_with_address(const std::string &address);

// describe_path for this machine.
SidePath local_path(const std::string &address, bool rdma);

} // namespace cmdbench

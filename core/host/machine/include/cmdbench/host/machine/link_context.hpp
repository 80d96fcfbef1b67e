// Which network interface and RDMA device carry a run's data on this side,
// from what sysfs says of them (path_context.hpp has what is recorded).
// The host works this out itself, from the address the data connection
// uses, so no plugin has to report it.
#pragma once
#include "cmdbench/report/path_context.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cmdbench {

// The path through `ifname` (the interface that has `address`, "" when none
// does), read from the sysfs tree at `sysfs_root` ("/sys"; tests pass a fake
// one). With `rdma`, also the RDMA device whose GID table has `address`
// (RoCE v2 before v1); for a loopback address, which no RDMA device has,
// the first device with an IP address in its GID table, as the RDMA
// plugins do.
// `active_mtu` answers for a device and port what sysfs cannot (null:
// unknown; local_path asks libibverbs).
// `gid_table` gives a device's valid GID entries at once, where sysfs has a
// file per entry, valid or not (null, or nullopt for a device: sysfs is
// read; local_path asks libibverbs). Soft-RoCE's table has 1,024 entries:
// read from sysfs in an emulated machine, that took ~0.5 s a scan.
using ActiveMtu = std::string (*)(const std::string &device, unsigned port);
struct GidEntry {
    unsigned port = 0;
    int index = -1;
    std::array<uint8_t, 16> gid{};
    std::string type;   // as sysfs names it: "IB/RoCE v1" or "RoCE v2"
    std::string netdev; // "unknown" when none (InfiniBand)
};
using GidTable = std::optional<std::vector<GidEntry>> (*)(const std::string &device);
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

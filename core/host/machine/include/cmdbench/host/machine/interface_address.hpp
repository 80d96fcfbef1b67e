// `[matrix] interface` and `device` (docs/matrix.md): each rank looks up its
// own address on a named network interface or RDMA device, so that on
// multi-homed nodes every rank serves on the data network although the
// scenario (the same on every rank) cannot name per-node addresses.
#pragma once
#include "cmdbench/host/machine/gid_entries.hpp"

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cmdbench {

// The interface or device is not there, or has no address: says which.
struct MatrixAddressError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The address of network interface `ifname` on this node (getifaddrs): IPv4
// first, else a global IPv6 one. Throws naming the node's interfaces when
// there is no such interface, or when it has no such address.
std::string interface_address(const std::string &ifname);

// The address that reaches RDMA device `device`, from the sysfs tree at
// `sysfs_root` ("/sys"; tests pass a fake one): an IP address in its GID
// table (RoCE; IPv4 before a global IPv6, RoCE v2 first), else the address
// `address_of` gives for a network interface of the device (IPoIB's ib0
// under device/net, a GID's netdev, a software device's parent). Throws
// naming the node's devices when there is no such device, or no address.
// `gid_table`: as gid_entries.hpp (null: sysfs is read).
std::string
rdma_device_address(const std::string &sysfs_root, const std::string &device,
                    const std::function<std::string(const std::string &ifname)> &address_of,
                    GidTable gid_table = nullptr);

} // namespace cmdbench

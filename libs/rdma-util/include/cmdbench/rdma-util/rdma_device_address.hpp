// The IP address to meet on over RDMA on this machine: Soft-RoCE and RoCE
// devices sit on a network interface, never on lo, so a local run or a rank
// without an explicit address uses the address of an RDMA device's interface.
#ifndef CMDBENCH_RDMA_UTIL_RDMA_DEVICE_ADDRESS_HPP
#define CMDBENCH_RDMA_UTIL_RDMA_DEVICE_ADDRESS_HPP

#include <string>

namespace cmdbench::rdma {

struct NodeAddress {
    std::string address; // empty: none found
    std::string why;     // "rxe0's interface dummy0" / what is missing
};

// The first IP address (IPv4 before IPv6, see interface_address) of the
// network interface of the first RDMA device (/sys/class/infiniband, names
// in order) that has one: the RoCE / Soft-RoCE netdevs of its port 1 GIDs,
// rxe's parent, or the interface on the same PCI device (IPoIB).
NodeAddress rdma_device_address();

// Every RDMA device with its interfaces and their addresses (link-local
// IPv6 left out), for a message that must say where RDMA can be used:
// "rxe0 (dummy0 192.0.2.1), rxe1 (dummy1 10.77.1.1)"; "none" without a device.
std::string rdma_devices_text();

} // namespace cmdbench::rdma

#endif

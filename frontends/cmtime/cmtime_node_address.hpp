// The address a rank binds and listens on under a launcher when neither -b
// nor -B is given: every rank gets the same options, but each needs an
// address of its own node.
//  - RDMA: the first IP address (IPv4 before IPv6) of the network interface
//    of the first RDMA device (/sys/class/infiniband, names in order): the
//    RoCE / Soft-RoCE netdev of its port 1 GIDs, rxe's parent, or the
//    interface on the same PCI device (IPoIB).
//  - sockets (-S): the IPv4 address of the interface holding the default
//    route; 127.0.0.1 when there is none (a single host).
#pragma once
#include <string>

namespace cmtime_frontend {

struct NodeAddress {
    std::string address; // empty: none found
    std::string why;     // "rxe0's interface dummy0" / what is missing
};

NodeAddress rdma_device_address();
NodeAddress default_route_address();

} // namespace cmtime_frontend

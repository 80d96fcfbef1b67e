// The address a rank binds and listens on under a launcher when neither -b
// nor -B is given: every rank gets the same options, but each needs an
// address of its own node.
//  - RDMA: the address of the first RDMA device's network interface
//    (rdma_device_address, libs/rdma-util).
//  - sockets (-S): the IPv4 address of the interface holding the default
//    route; 127.0.0.1 when there is none (a single host).
#pragma once
#include <cmdbench/rdma-util/rdma_device_address.hpp>
#include <string>

namespace cmdbench::cmtime_frontend {

// {address, why}: empty address when none was found, why says what is missing.
using cmdbench::rdma::NodeAddress;
using cmdbench::rdma::rdma_device_address;
NodeAddress default_route_address();

} // namespace cmdbench::cmtime_frontend

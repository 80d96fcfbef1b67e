// Where a server asked to bind loopback should listen instead: Soft-RoCE and
// RoCE devices sit on a network interface, never on lo, so a local run
// (`cmdbench run` without --server) meets on that interface's address.
#ifndef CMDBENCH_VERBS_NETDEV_ADDRESS_HPP
#define CMDBENCH_VERBS_NETDEV_ADDRESS_HPP

#include <string>

namespace verbs {

bool is_loopback_host(const std::string &host);
// The first IPv4 (else global IPv6) address of the network interface of the
// first RDMA device that has one (sysfs gid_attrs); "" when there is none.
std::string rdma_netdev_address();

} // namespace verbs

#endif

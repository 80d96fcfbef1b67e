// Whether this machine has an RDMA device at all: the check the RDMA tests
// and transports make before anything else, to skip with a clear reason.
#ifndef CMDBENCH_RDMA_UTIL_RDMA_DEVICE_HPP
#define CMDBENCH_RDMA_UTIL_RDMA_DEVICE_HPP

#include <string>

namespace cmdbench::rdma {

// Empty when ibv_get_device_list finds a device, else why not
// ("ibv_get_device_list found none", "ibv_get_device_list: <errno text>").
std::string rdma_device_problem();

} // namespace cmdbench::rdma

#endif

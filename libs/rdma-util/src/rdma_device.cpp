// The device check (see rdma_device.hpp).
#include "cmdbench/rdma-util/rdma_device.hpp"

#include <cerrno>
#include <cmdbench/plugin-support/run_error.hpp>
#include <infiniband/verbs.h>

namespace cmdbench::rdma {

std::string rdma_device_problem() {
    int n = 0;
    ibv_device **list = ibv_get_device_list(&n);
    if (!list) return "ibv_get_device_list: " + cmdbench::support::errno_text(errno);
    ibv_free_device_list(list);
    if (n == 0) return "ibv_get_device_list found none";
    return std::string();
}

} // namespace cmdbench::rdma

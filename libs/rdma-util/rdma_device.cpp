// The device check (see rdma_device.hpp).
#include "cmdbench/rdma-util/rdma_device.hpp"

#include <cerrno>
#include <cstring>
#include <infiniband/verbs.h>

namespace cmdbench::rdma {

std::string rdma_device_problem() {
    int n = 0;
    ibv_device **list = ibv_get_device_list(&n);
    if (!list) {
        char buf[128] = "";
        return std::string("ibv_get_device_list: ") + strerror_r(errno, buf, sizeof buf);
    }
    ibv_free_device_list(list);
    if (n == 0) return "ibv_get_device_list found none";
    return std::string();
}

} // namespace cmdbench::rdma

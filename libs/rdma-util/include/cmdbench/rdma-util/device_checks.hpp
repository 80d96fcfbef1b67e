// What the RDMA tests ask of a device before they post anything: whether its
// port can carry traffic at all, and whether perftest would give it inline
// data by default (so that a run at defaults sends as perftest's does).
#ifndef CMDBENCH_RDMA_UTIL_DEVICE_CHECKS_HPP
#define CMDBENCH_RDMA_UTIL_DEVICE_CHECKS_HPP

#include <cstdint>
#include <infiniband/verbs.h>
#include <string>

namespace cmdbench::rdma {

// "" when port `port` of `ctx` is ACTIVE; else what is wrong, naming the
// device, the port and its state: "port 1 of rxe0 is DOWN (not ACTIVE)".
std::string port_problem(ibv_context *ctx, uint8_t port);
// What port_problem says of a port of `device` in `state` (not ACTIVE).
std::string port_state_problem(const std::string &device, int port, ibv_port_state state);

// perftest turns its default inline data off ("Device not recognized to
// implement inline feature") on devices it does not know: software devices
// (Soft-RoCE rxe, siw) and unknown hardware. This says whether the device's
// vendor (ibv_device_attr::vendor_id) is one of the RDMA hardware vendors
// whose adapters perftest knows.
bool inline_by_default(uint32_t vendor_id);
// The same for an open device; false when it cannot be queried.
bool inline_by_default(ibv_context *ctx);

} // namespace cmdbench::rdma

#endif

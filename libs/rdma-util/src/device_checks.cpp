// Port state and perftest's inline rule (see device_checks.hpp).
#include <algorithm>
#include <cerrno>
#include <cmdbench/rdma-util/device_checks.hpp>
#include <cstring>
#include <iterator>

namespace cmdbench::rdma {
namespace {

std::string state_name(ibv_port_state state) {
    switch (state) {
    case IBV_PORT_NOP:
        return "NOP";
    case IBV_PORT_DOWN:
        return "DOWN";
    case IBV_PORT_INIT:
        return "INIT";
    case IBV_PORT_ARMED:
        return "ARMED";
    case IBV_PORT_ACTIVE:
        return "ACTIVE";
    case IBV_PORT_ACTIVE_DEFER:
        return "ACTIVE_DEFER";
    }
    return "state " + std::to_string(int(state));
}

// Vendor ids as the kernel drivers report them (an IEEE OUI or a PCI vendor
// id): NVIDIA/Mellanox (OUI and PCI), Broadcom, Chelsio, QLogic/Marvell,
// Intel, Huawei, Amazon, Alibaba. Soft-RoCE reports 0xffffff, siw 0x626d74.
constexpr uint32_t kInlineVendors[] = {0x02c9, 0x15b3, 0x14e4, 0x1425, 0x1077,
                                       0x8086, 0x19e5, 0x1d0f, 0x1ded};

} // namespace

std::string port_problem(ibv_context *ctx, uint8_t port) {
    const std::string device = ctx ? ibv_get_device_name(ctx->device) : "(no device)";
    ibv_port_attr attr{};
    const int rc = ctx ? ibv_query_port(ctx, port, &attr) : EINVAL;
    if (rc != 0)
        return "ibv_query_port " + device + " port " + std::to_string(port) + ": " +
               std::strerror(rc);
    if (attr.state == IBV_PORT_ACTIVE) return "";
    return port_state_problem(device, port, attr.state);
}

std::string port_state_problem(const std::string &device, int port, ibv_port_state state) {
    return "port " + std::to_string(port) + " of " + device + " is " + state_name(state) +
           " (not ACTIVE): nothing can be sent through it";
}

bool inline_by_default(uint32_t vendor_id) {
    return std::find(std::begin(kInlineVendors), std::end(kInlineVendors), vendor_id) !=
           std::end(kInlineVendors);
}

bool inline_by_default(ibv_context *ctx) {
    ibv_device_attr attr{};
    return ctx && ibv_query_device(ctx, &attr) == 0 && inline_by_default(attr.vendor_id);
}

} // namespace cmdbench::rdma

#include "cmdbench/host/machine/rdma_rails.hpp"

#include "cmdbench/host/machine/interface_address.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace cmdbench {
namespace {

namespace fs = std::filesystem;

// "4: ACTIVE" is the kernel's text for IB_PORT_ACTIVE.
bool has_active_port(const fs::path &dev) {
    std::error_code ec;
    for (const auto &port : fs::directory_iterator(dev / "ports", ec)) {
        std::ifstream in(port.path() / "state");
        std::string state;
        std::getline(in, state);
        if (state.find("ACTIVE") != std::string::npos) return true;
    }
    return false;
}

// An interface's address, or "" when it has none (not an error here: the
// device may have another interface).
std::string address_or_none(const std::string &ifname) {
    try {
        return interface_address(ifname);
    } catch (const MatrixAddressError &) {
        return {};
    }
}

} // namespace

std::vector<RdmaRail> active_rdma_rails(const std::string &sysfs_root, GidTable gid_table) {
    std::vector<std::string> devices;
    std::error_code ec;
    for (const auto &d : fs::directory_iterator(fs::path(sysfs_root) / "class" / "infiniband", ec))
        if (has_active_port(d.path())) devices.push_back(d.path().filename().string());
    std::sort(devices.begin(), devices.end());
    std::vector<RdmaRail> out;
    for (const std::string &device : devices) {
        try {
            out.push_back(
                {device, rdma_device_address(sysfs_root, device, address_or_none, gid_table)});
        } catch (const MatrixAddressError &) {
            // No address reaches it: not a rail a run can bind to.
        }
    }
    return out;
}

} // namespace cmdbench

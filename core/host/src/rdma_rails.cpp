#include "rdma_rails.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <filesystem>
#include <fstream>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

namespace cmdbench {
namespace {

namespace fs = std::filesystem;

std::string first_line(const fs::path &p) {
    std::ifstream in(p);
    std::string line;
    std::getline(in, line);
    return line;
}

// "4: ACTIVE" is the kernel's text for IB_PORT_ACTIVE.
bool port_active(const fs::path &port) {
    return first_line(port / "state").find("ACTIVE") != std::string::npos;
}

// RoCE: the port's GID table names the interface (ndevs/0). InfiniBand has
// none there; its IPoIB interfaces share the device's parent (the PCI
// function), so the interface whose device link resolves to the same one.
std::string netdev_of(const std::string &sysfs_root, const fs::path &dev, const fs::path &port) {
    std::string ndev = first_line(port / "gid_attrs" / "ndevs" / "0");
    if (!ndev.empty()) return ndev;
    std::error_code ec;
    const fs::path parent = fs::canonical(dev / "device", ec);
    if (ec) return {};
    for (const auto &net : fs::directory_iterator(fs::path(sysfs_root) / "class" / "net", ec)) {
        std::error_code ec2;
        if (fs::canonical(net.path() / "device", ec2) == parent && !ec2)
            return net.path().filename().string();
    }
    return {};
}

std::string ipv4_of(const std::string &ifname) {
    ifaddrs *list = nullptr;
    if (getifaddrs(&list) != 0) return {};
    std::string out;
    for (ifaddrs *a = list; a && out.empty(); a = a->ifa_next)
        if (a->ifa_addr && a->ifa_addr->sa_family == AF_INET && ifname == a->ifa_name) {
            char text[INET_ADDRSTRLEN] = {};
            const auto *in = reinterpret_cast<const sockaddr_in *>(a->ifa_addr);
            if (inet_ntop(AF_INET, &in->sin_addr, text, sizeof text)) out = text;
        }
    freeifaddrs(list);
    return out;
}

} // namespace

std::vector<RdmaRail> active_rdma_rails(const std::string &sysfs_root) {
    std::vector<RdmaRail> out;
    std::error_code ec;
    std::vector<fs::path> devices;
    for (const auto &d : fs::directory_iterator(fs::path(sysfs_root) / "class" / "infiniband", ec))
        devices.push_back(d.path());
    std::sort(devices.begin(), devices.end());
    for (const fs::path &dev : devices) {
        std::vector<fs::path> ports;
        for (const auto &p : fs::directory_iterator(dev / "ports", ec))
            ports.push_back(p.path());
        std::sort(ports.begin(), ports.end());
        for (const fs::path &port : ports) {
            if (!port_active(port)) continue;
            RdmaRail r;
            r.device = dev.filename().string();
            r.port = unsigned(std::stoul("0" + port.filename().string()));
            r.netdev = netdev_of(sysfs_root, dev, port);
            r.address = r.netdev.empty() ? "" : ipv4_of(r.netdev);
            if (r.address.empty()) continue;
            out.push_back(r);
            break;
        }
    }
    return out;
}

} // namespace cmdbench

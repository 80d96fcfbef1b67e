#include "cmdbench/host/machine/interface_address.hpp"

#include "cmdbench/host/machine/sysfs_files.hpp"
#include "cmdbench/report/path_context.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <array>
#include <filesystem>
#include <fstream>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <set>
#include <sys/socket.h>

namespace cmdbench {
namespace {

namespace fs = std::filesystem;

std::string joined(const std::set<std::string> &names) {
    std::string out;
    for (const auto &n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? "none" : out;
}

// The IP address in a GID, and whether it is IPv4 (a mapped address); ""
// for link-local and non-IP GIDs.
std::string gid_ip(const std::array<uint8_t, 16> &b, bool &v4) {
    char buf[INET6_ADDRSTRLEN] = {};
    v4 = std::all_of(b.begin(), b.begin() + 10, [](uint8_t x) { return x == 0; }) &&
         b[10] == 0xff && b[11] == 0xff;
    if (v4) return inet_ntop(AF_INET, &b[12], buf, sizeof buf) ? buf : "";
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) return ""; // link-local: no use off the link
    return inet_ntop(AF_INET6, b.data(), buf, sizeof buf) ? buf : "";
}

} // namespace

std::string interface_address(const std::string &ifname) {
    ifaddrs *list = nullptr;
    if (getifaddrs(&list) != 0)
        throw MatrixAddressError("cannot list the network interfaces of this node");
    std::set<std::string> names;
    std::string v4, v6;
    bool found = false;
    for (ifaddrs *a = list; a; a = a->ifa_next) {
        names.insert(a->ifa_name);
        if (ifname != a->ifa_name) continue;
        found = true;
        if (!a->ifa_addr) continue;
        char buf[INET6_ADDRSTRLEN] = {};
        if (a->ifa_addr->sa_family == AF_INET && v4.empty()) {
            const auto *in = reinterpret_cast<const sockaddr_in *>(a->ifa_addr);
            if (inet_ntop(AF_INET, &in->sin_addr, buf, sizeof buf)) v4 = buf;
        } else if (a->ifa_addr->sa_family == AF_INET6 && v6.empty()) {
            const auto *in = reinterpret_cast<const sockaddr_in6 *>(a->ifa_addr);
            if (!IN6_IS_ADDR_LINKLOCAL(&in->sin6_addr) &&
                inet_ntop(AF_INET6, &in->sin6_addr, buf, sizeof buf))
                v6 = buf;
        }
    }
    freeifaddrs(list);
    if (!found && if_nametoindex(ifname.c_str()) == 0)
        throw MatrixAddressError("no network interface '" + ifname + "' on this node (it has " +
                                 joined(names) + ")");
    if (!v4.empty()) return v4;
    if (!v6.empty()) return v6;
    throw MatrixAddressError("network interface '" + ifname +
                             "' has no IPv4 or global IPv6 address on this node");
}

std::string
rdma_device_address(const std::string &sysfs_root, const std::string &device,
                    const std::function<std::string(const std::string &ifname)> &address_of,
                    GidTable gid_table) {
    const fs::path ib = fs::path(sysfs_root) / "class" / "infiniband";
    const fs::path dev = ib / device;
    std::error_code ec;
    if (device.find('/') != std::string::npos || !fs::is_directory(dev, ec)) {
        const auto all = dir_entries(ib);
        throw MatrixAddressError("no RDMA device '" + device + "' on this node (it has " +
                                 joined({all.begin(), all.end()}) + ")");
    }
    // RoCE: the GID table holds the IP addresses. Best: IPv4, RoCE v2.
    std::string best;
    int best_rank = -1;
    std::vector<std::string> netdevs;
    for (const GidEntry &e : gid_entries(sysfs_root, device, gid_table)) {
        bool v4 = false;
        const std::string ip = gid_ip(e.gid, v4);
        if (e.netdev != kUnknown) netdevs.push_back(e.netdev);
        if (ip.empty()) continue;
        const int rank = (v4 ? 2 : 0) + (e.type == "RoCE v2");
        if (rank > best_rank) {
            best_rank = rank;
            best = ip;
        }
    }
    if (!best.empty()) return best;
    // InfiniBand: IPoIB's interface (device/net/ib0); a software device
    // names its interface in `parent`.
    for (const auto &n : dir_entries(dev / "device" / "net"))
        netdevs.push_back(n);
    const std::string parent = first_line(dev / "parent");
    if (!parent.empty()) netdevs.push_back(parent);
    for (const auto &n : netdevs) {
        const std::string a = address_of(n);
        if (!a.empty()) return a;
    }
    throw MatrixAddressError(
        "RDMA device '" + device + "' has no IP address on this node (none in its GID table" +
        (netdevs.empty() ? ", no network interface"
                         : ", nor on " + joined({netdevs.begin(), netdevs.end()})) +
        ")");
}

} // namespace cmdbench

// sysfs: /sys/class/net/IF for interfaces, /sys/class/infiniband/DEV for
// RDMA devices; their GID tables (gid_entries.hpp) map addresses to devices
// and ports.
#include "cmdbench/host/machine/link_context.hpp"

#include "cmdbench/host/machine/sysfs_files.hpp"
#include "ibv_queries.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <array>
#include <cstring>
#include <filesystem>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <optional>
#include <vector>

namespace cmdbench {
namespace {

namespace fs = std::filesystem;
using Gid = std::array<uint8_t, 16>;

// The last component of where a symlink points, or "unknown".
std::string link_name(const fs::path &link) {
    std::error_code ec;
    const fs::path target = fs::read_symlink(link, ec);
    if (ec || target.filename().empty()) return kUnknown;
    return target.filename().string();
}

// "4: ACTIVE" -> "ACTIVE".
std::string after_colon(const std::string &v) {
    const auto colon = v.find(": ");
    return colon == std::string::npos ? v : v.substr(colon + 2);
}

// The NUMA node and PCI address of a device directory's `device` link. A
// virtio device (virtio-net) is not the PCI function itself but its child:
// its node and address are its parent's.
void bus_position(const fs::path &dir, std::string &numa, std::string &pci) {
    fs::path dev = dir / "device";
    if (link_name(dev / "subsystem") == "virtio") {
        std::error_code ec;
        const fs::path real = fs::canonical(dev, ec);
        if (!ec) dev = real.parent_path();
    }
    numa = value_or_unknown(dev / "numa_node");
    if (numa == "-1") numa = kUnknown; // the kernel's "no NUMA affinity"
    std::error_code ec;
    const fs::path real = fs::canonical(dev, ec);
    pci = !ec && link_name(dev / "subsystem") == "pci" ? real.filename().string()
                                                       : std::string(kUnknown);
}

NetInterface read_interface(const fs::path &root, const std::string &ifname) {
    NetInterface i;
    if (ifname.empty()) return i;
    const fs::path dir = root / "class" / "net" / ifname;
    i.name = ifname;
    i.driver = link_name(dir / "device" / "driver");
    const std::string speed = value_or_unknown(dir / "speed");
    // -1: the link is down or the driver does not know.
    if (speed != kUnknown && speed != "-1") i.speed = speed + " Mb/s";
    i.mtu = value_or_unknown(dir / "mtu");
    bus_position(dir, i.numa_node, i.pci_address);
    return i;
}

// An address as the GID RoCE gives it: IPv4 mapped into IPv6. A scope
// ("fe80::1%eth0") is not part of the GID.
std::optional<Gid> address_gid(std::string address) {
    address = address.substr(0, address.find('%'));
    Gid g{};
    in_addr v4{};
    if (inet_pton(AF_INET, address.c_str(), &v4) == 1) {
        g[10] = g[11] = 0xff;
        std::memcpy(&g[12], &v4, 4);
        return g;
    }
    in6_addr v6{};
    if (inet_pton(AF_INET6, address.c_str(), &v6) == 1) {
        std::memcpy(g.data(), &v6, 16);
        return g;
    }
    return std::nullopt;
}

bool is_v4_mapped(const Gid &g) {
    return std::all_of(g.begin(), g.begin() + 10, [](uint8_t b) { return b == 0; }) &&
           g[10] == 0xff && g[11] == 0xff;
}

std::string gid_address(const Gid &g) {
    char buf[INET6_ADDRSTRLEN] = {};
    if (is_v4_mapped(g)) return inet_ntop(AF_INET, &g[12], buf, sizeof buf) ? buf : kUnknown;
    return inet_ntop(AF_INET6, g.data(), buf, sizeof buf) ? buf : kUnknown;
}

struct GidMatch {
    std::string device;
    GidEntry entry;
};

// The GID that has `want` (or, without one, the first IP address of any
// device: IPv4 before a global IPv6); RoCE v2 before v1.
std::optional<GidMatch> find_gid(const fs::path &root, const std::optional<Gid> &want,
                                 GidTable gid_table) {
    std::optional<GidMatch> best;
    int best_rank = -1;
    const fs::path ib = root / "class" / "infiniband";
    for (const auto &dev : dir_entries(ib)) {
        for (const GidEntry &e : gid_entries(root.string(), dev, gid_table)) {
            int rank;
            if (want) {
                if (e.gid != *want) continue;
                rank = 1;
            } else {
                if (e.gid[0] == 0xfe && (e.gid[1] & 0xc0) == 0x80) continue; // link-local
                rank = is_v4_mapped(e.gid) ? 1 : 0;
            }
            rank = rank * 2 + (e.type == "RoCE v2" ? 1 : 0);
            if (rank <= best_rank) continue;
            best_rank = rank;
            best = GidMatch{dev, e};
        }
    }
    return best;
}

RdmaDevice read_device(const fs::path &root, const GidMatch &m) {
    RdmaDevice d = read_rdma_port(root.string(), m.device, m.entry.port);
    if (m.entry.netdev != kUnknown) d.netdev = m.entry.netdev;
    return d;
}

bool is_loopback(const std::optional<Gid> &g) {
    if (!g) return false;
    if (is_v4_mapped(*g)) return (*g)[12] == 127;
    static const Gid v6_loopback = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    return *g == v6_loopback;
}

} // namespace

RdmaDevice read_rdma_port(const std::string &sysfs_root, const std::string &device,
                          unsigned port_number) {
    const fs::path dir = fs::path(sysfs_root) / "class" / "infiniband" / device;
    const fs::path port = dir / "ports" / std::to_string(port_number);
    RdmaDevice d;
    d.name = device;
    d.driver = link_name(dir / "device" / "driver");
    // Software devices have no bus device, hence no driver link; they name
    // their network interface in `parent`. siw is iWARP (an RNIC), rxe an
    // InfiniBand CA over Ethernet.
    if (d.driver == kUnknown && value_or_unknown(dir / "parent") != kUnknown)
        d.driver = value_or_unknown(dir / "node_type").rfind("4:", 0) == 0 ? "siw" : "rxe";
    d.firmware = value_or_unknown(dir / "fw_ver");
    d.node_guid = value_or_unknown(dir / "node_guid");
    d.port = port_number;
    d.port_state = after_colon(value_or_unknown(port / "state"));
    d.link_layer = value_or_unknown(port / "link_layer");
    d.rate = value_or_unknown(port / "rate");
    d.netdev = value_or_unknown(dir / "parent");
    bus_position(dir, d.numa_node, d.pci_address);
    return d;
}

SidePath describe_path(const std::string &sysfs_root, const std::string &address,
                       const std::string &ifname, bool rdma, ActiveMtu active_mtu,
                       GidTable gid_table) {
    const fs::path root(sysfs_root);
    SidePath s;
    s.address = address.empty() ? kUnknown : address;
    s.interface = read_interface(root, ifname);
    s.rdma = rdma;
    if (!rdma) return s;
    const auto want = address_gid(address);
    std::optional<GidMatch> m;
    if (!is_loopback(want))
        m = find_gid(root, want, gid_table);
    else if ((m = find_gid(root, std::nullopt, gid_table))) {
        s.address = gid_address(m->entry.gid);
        s.interface = read_interface(root, m->entry.netdev == kUnknown ? "" : m->entry.netdev);
    }
    if (!m) return s;
    s.gid_index = m->entry.index;
    s.gid_type = m->entry.type;
    s.devices.push_back(read_device(root, *m));
    if (active_mtu) s.devices.back().active_mtu = active_mtu(m->device, m->entry.port);
    return s;
}

std::string interface_with_address(const std::string &address) {
    const auto want = address_gid(address);
    if (!want) return "";
    ifaddrs *list = nullptr;
    if (getifaddrs(&list) != 0) return "";
    std::string name;
    for (ifaddrs *a = list; a && name.empty(); a = a->ifa_next) {
        if (!a->ifa_addr || !a->ifa_name) continue;
        Gid g{};
        if (a->ifa_addr->sa_family == AF_INET) {
            g[10] = g[11] = 0xff;
            std::memcpy(&g[12], &reinterpret_cast<sockaddr_in *>(a->ifa_addr)->sin_addr, 4);
        } else if (a->ifa_addr->sa_family == AF_INET6) {
            std::memcpy(g.data(), &reinterpret_cast<sockaddr_in6 *>(a->ifa_addr)->sin6_addr, 16);
        } else {
            continue;
        }
        if (g == *want) name = a->ifa_name;
    }
    freeifaddrs(list);
    return name;
}

SidePath local_path(const std::string &address, bool rdma) {
    return describe_path("/sys", address, interface_with_address(address), rdma, ibv_active_mtu,
                         ibv_gid_table);
}

} // namespace cmdbench

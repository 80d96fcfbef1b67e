// Default per-node addresses (see cmtime_node_address.hpp).
#include "cmtime_node_address.hpp"

#include "matrix_interface.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <net/route.h>
#include <sstream>
#include <vector>

namespace cmtime_frontend {
namespace {

std::vector<std::string> entries(const std::string &dir) {
    std::vector<std::string> out;
    if (DIR *d = opendir(dir.c_str())) {
        while (const dirent *e = readdir(d))
            if (e->d_name[0] != '.') out.push_back(e->d_name);
        closedir(d);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string first_line(const std::string &path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

std::string real_path(const std::string &path) {
    char buf[PATH_MAX];
    return realpath(path.c_str(), buf) ? std::string(buf) : std::string();
}

// First IPv4 address of the interface, else its first IPv6 address that is
// not link-local (those need a scope the peers do not know); "" for none.
// The lookup is the one matrix mode's [matrix] interface uses.
std::string interface_address(const std::string &ifname) {
    try {
        return cmdbench::interface_address(ifname);
    } catch (const cmdbench::MatrixAddressError &) {
        return "";
    }
}

// The network interfaces of one RDMA device, most specific first.
std::vector<std::string> device_interfaces(const std::string &dev) {
    const std::string base = "/sys/class/infiniband/" + dev;
    std::vector<std::string> out;
    for (const std::string &ndev : entries(base + "/ports/1/gid_attrs/ndevs")) {
        const std::string name = first_line(base + "/ports/1/gid_attrs/ndevs/" + ndev);
        if (!name.empty()) out.push_back(name);
    }
    if (const std::string parent = first_line(base + "/parent"); !parent.empty())
        out.push_back(parent);
    const std::string device = real_path(base + "/device");
    if (!device.empty())
        for (const std::string &net : entries("/sys/class/net"))
            if (real_path("/sys/class/net/" + net + "/device") == device) out.push_back(net);
    return out;
}

} // namespace

NodeAddress rdma_device_address() {
    const std::vector<std::string> devices = entries("/sys/class/infiniband");
    if (devices.empty()) return {"", "this node has no RDMA device"};
    for (const std::string &dev : devices)
        for (const std::string &net : device_interfaces(dev))
            if (std::string a = interface_address(net); !a.empty())
                return {a, dev + "'s interface " + net};
    return {"", "no RDMA device here (" + devices.front() + "...) has an IP address"};
}

NodeAddress default_route_address() {
    // /proc/net/route: Iface Destination Gateway Flags RefCnt Use Metric ...
    std::ifstream in("/proc/net/route");
    std::string line, best_if;
    long best_metric = -1;
    std::getline(in, line); // header
    while (std::getline(in, line)) {
        std::istringstream f(line);
        std::string ifname, dest, gateway;
        unsigned flags = 0;
        long refcnt = 0, use = 0, metric = 0;
        if (!(f >> ifname >> dest >> gateway >> std::hex >> flags >> std::dec >> refcnt >> use >>
              metric))
            continue;
        if (dest != "00000000" || !(flags & RTF_UP)) continue;
        if (best_metric < 0 || metric < best_metric) best_metric = metric, best_if = ifname;
    }
    if (!best_if.empty())
        if (std::string a = interface_address(best_if); !a.empty())
            return {a, "the default route's interface " + best_if};
    return {"127.0.0.1", "loopback: this node has no default route"};
}

} // namespace cmtime_frontend

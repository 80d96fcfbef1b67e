// An RDMA device's interface address (see rdma_device_address.hpp).
#include "cmdbench/rdma-util/rdma_device_address.hpp"

#include "cmdbench/rdma-util/net_address.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <vector>

namespace cmdbench::rdma {
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

std::string rdma_devices_text() {
    std::vector<InterfaceAddress> all;
    interface_addresses(all);
    std::string out;
    for (const std::string &dev : entries("/sys/class/infiniband")) {
        std::string where;
        std::vector<std::string> seen; // a netdev may be a GID's and the parent
        for (const std::string &net : device_interfaces(dev)) {
            if (std::find(seen.begin(), seen.end(), net) != seen.end()) continue;
            seen.push_back(net);
            where += (where.empty() ? "" : ", ") + net;
            for (const InterfaceAddress &a : all)
                if (a.interface == net && !a.link_local) where += " " + a.text;
        }
        out +=
            (out.empty() ? "" : ", ") + dev + " (" + (where.empty() ? "no interface" : where) + ")";
    }
    return out.empty() ? "none" : out;
}

} // namespace cmdbench::rdma

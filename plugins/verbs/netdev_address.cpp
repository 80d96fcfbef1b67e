// The address of an RDMA device's network interface (see netdev_address.hpp).
#include "netdev_address.hpp"

#include <arpa/inet.h>
#include <dirent.h>
#include <fstream>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <vector>

namespace verbs {
namespace {

std::vector<std::string> rdma_netdevs() {
    std::vector<std::string> out;
    const std::string root = "/sys/class/infiniband";
    DIR *dir = opendir(root.c_str());
    if (!dir) return out;
    while (dirent *e = readdir(dir)) {
        if (e->d_name[0] == '.') continue;
        std::ifstream in(root + "/" + e->d_name + "/ports/1/gid_attrs/ndevs/0");
        std::string name;
        if (in >> name && !name.empty()) out.push_back(name);
    }
    closedir(dir);
    return out;
}

std::string address_of(const std::string &netdev) {
    ifaddrs *list = nullptr;
    if (getifaddrs(&list) != 0) return "";
    std::string v4, v6;
    for (ifaddrs *a = list; a; a = a->ifa_next) {
        if (!a->ifa_addr || netdev != a->ifa_name) continue;
        char text[INET6_ADDRSTRLEN] = "";
        if (a->ifa_addr->sa_family == AF_INET && v4.empty()) {
            inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in *>(a->ifa_addr)->sin_addr, text,
                      sizeof text);
            v4 = text;
        } else if (a->ifa_addr->sa_family == AF_INET6 && v6.empty()) {
            const in6_addr &ip = reinterpret_cast<sockaddr_in6 *>(a->ifa_addr)->sin6_addr;
            if (IN6_IS_ADDR_LINKLOCAL(&ip)) continue;
            inet_ntop(AF_INET6, &ip, text, sizeof text);
            v6 = text;
        }
    }
    freeifaddrs(list);
    return v4.empty() ? v6 : v4;
}

} // namespace

bool is_loopback_host(const std::string &host) {
    return host.rfind("127.", 0) == 0 || host == "::1" || host == "localhost";
}

std::string rdma_netdev_address() {
    for (const std::string &netdev : rdma_netdevs()) {
        const std::string addr = address_of(netdev);
        if (!addr.empty()) return addr;
    }
    return "";
}

} // namespace verbs

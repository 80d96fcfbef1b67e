// The default route's address (see cmtime_node_address.hpp).
#include "cmtime_node_address.hpp"

#include <cmdbench/rdma-util/net_address.hpp>
#include <fstream>
#include <net/route.h>
#include <sstream>

namespace cmdbench::cmtime_frontend {

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
        if (std::string a = cmdbench::rdma::interface_address(best_if); !a.empty())
            return {a, "the default route's interface " + best_if};
    return {"127.0.0.1", "loopback: this node has no default route"};
}

} // namespace cmdbench::cmtime_frontend

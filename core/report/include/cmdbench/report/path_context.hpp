// The data path a run took on each side: the network interface and, for
// RDMA runs, the RDMA device, port and GID (docs/results.md, `runs[].path`).
// Every text field is "unknown" when the system did not say.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cmdbench {

constexpr const char *kUnknown = "unknown";

struct NetInterface {
    std::string name = kUnknown, driver = kUnknown, speed = kUnknown, mtu = kUnknown,
                numa_node = kUnknown, pci_address = kUnknown;
};

// An RDMA device and the port of it the run used.
struct RdmaDevice {
    std::string name = kUnknown, driver = kUnknown, firmware = kUnknown, node_guid = kUnknown;
    unsigned port = 0;
    std::string port_state = kUnknown, link_layer = kUnknown, active_mtu = kUnknown,
                rate = kUnknown, netdev = kUnknown, numa_node = kUnknown, pci_address = kUnknown;
    // rxe (Soft-RoCE) and siw (soft iWARP) run RDMA in the kernel's software.
    bool software() const { return driver == "rxe" || driver == "siw"; }
};

// Where one side of a run ran (docs/results.md, `runs[].path.*.affinity`):
// what the scenario asked (`cpus`, `numa`; "" when it did not) and what the
// host saw. CPU and node lists read like "0-3,8".
struct SideAffinity {
    std::string requested_cpus, requested_numa; // "0-1", "device" or "1"; "" = not asked
    std::string numa_node;                      // the node `numa` resolved to; "" = none
    std::string cpus_allowed = kUnknown;        // the test thread's affinity mask
    std::string cpus_seen = kUnknown;           // CPUs the run's threads were seen running on
    std::string memory_policy = kUnknown;       // default, bind, preferred, interleave, local
    std::string memory_nodes = kUnknown;        // the policy's nodes; "" for default
    std::string memory_node_seen = kUnknown;    // node of a page the test thread touched
    bool asked() const { return !requested_cpus.empty() || !requested_numa.empty(); }
};

struct SidePath {
    std::string address = kUnknown; // this side's address of the data connection
    NetInterface interface;
    // RDMA runs: the GID this side's address has on `devices[0]`; unset for
    // TCP runs and when no device has the address.
    bool rdma = false;
    int gid_index = -1;
    std::string gid_type = kUnknown; // "RoCE v2", "IB/RoCE v1"
    std::vector<RdmaDevice> devices;
    // Unset when the side did not say (a peer older than the key).
    std::optional<SideAffinity> affinity;
    bool software_rdma() const;
};

struct RunPath {
    std::optional<SidePath> client;
    std::optional<SidePath> server; // unset: the server did not say (an older one)
    bool known() const { return client || server; }
    bool software_rdma() const;
    // The drivers of the software RDMA devices: {"rxe"}.
    std::set<std::string> software_drivers() const;
};

nlohmann::ordered_json side_path_json(const SidePath &side);
nlohmann::ordered_json run_path_json(const RunPath &path);
// The reverse; throws nlohmann::json::exception on a malformed object.
// Strings come from a peer or a file: control characters are escaped.
SidePath side_path_from_json(const nlohmann::ordered_json &j);
RunPath run_path_from_json(const nlohmann::ordered_json &j);

// One line for the table: "rxe0 port 1 GID 1 RoCE v2 (driver rxe, Ethernet,
// ...) on dummy0 (mtu 9000)" or "lo (driver unknown, speed unknown, mtu 65536)".
std::string side_path_text(const SidePath &side);

// "cpus 1 (asked 1), seen 1; memory bind 0, seen 0" for the table and the
// HTML report.
std::string side_affinity_text(const SideAffinity &a);

// What the reports say of a software RDMA run.
std::string software_rdma_notice(const std::set<std::string> &drivers);

} // namespace cmdbench

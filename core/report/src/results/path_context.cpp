// runs[].path as JSON, back, and as a line of text (path_context.hpp).
#include "cmdbench/report/path_context.hpp"

#include "cmdbench/control/printable_text.hpp"

#include <nlohmann/json.hpp>

namespace cmdbench {
namespace {

using Json = nlohmann::ordered_json;

// A field a peer or a file sent: absent reads as "unknown", and nothing in
// it reaches a terminal raw.
std::string text_of(const Json &j, const char *key) {
    if (!j.contains(key) || !j.at(key).is_string()) return kUnknown;
    return printable_text(j.at(key).get<std::string>());
}

Json interface_json(const NetInterface &i) {
    return {{"name", i.name}, {"driver", i.driver},       {"speed", i.speed},
            {"mtu", i.mtu},   {"numa_node", i.numa_node}, {"pci_address", i.pci_address}};
}

Json device_json(const RdmaDevice &d) {
    return {{"name", d.name},
            {"driver", d.driver},
            {"software", d.software()},
            {"firmware", d.firmware},
            {"node_guid", d.node_guid},
            {"port", d.port},
            {"port_state", d.port_state},
            {"link_layer", d.link_layer},
            {"active_mtu", d.active_mtu},
            {"rate", d.rate},
            {"netdev", d.netdev},
            {"numa_node", d.numa_node},
            {"pci_address", d.pci_address}};
}

Json affinity_json(const SideAffinity &a) {
    return {{"requested_cpus", a.requested_cpus}, {"requested_numa", a.requested_numa},
            {"numa_node", a.numa_node},           {"cpus_allowed", a.cpus_allowed},
            {"cpus_seen", a.cpus_seen},           {"memory_policy", a.memory_policy},
            {"memory_nodes", a.memory_nodes},     {"memory_node_seen", a.memory_node_seen}};
}

// Absent text fields of what was asked read as "" (not asked).
std::string asked_of(const Json &j, const char *key) {
    return j.contains(key) && j.at(key).is_string() ? text_of(j, key) : std::string();
}

SideAffinity affinity_from_json(const Json &j) {
    SideAffinity a;
    a.requested_cpus = asked_of(j, "requested_cpus");
    a.requested_numa = asked_of(j, "requested_numa");
    a.numa_node = asked_of(j, "numa_node");
    a.cpus_allowed = text_of(j, "cpus_allowed");
    a.cpus_seen = text_of(j, "cpus_seen");
    a.memory_policy = text_of(j, "memory_policy");
    a.memory_nodes = asked_of(j, "memory_nodes");
    a.memory_node_seen = text_of(j, "memory_node_seen");
    return a;
}

} // namespace

bool SidePath::software_rdma() const {
    for (const auto &d : devices)
        if (d.software()) return true;
    return false;
}

bool RunPath::software_rdma() const {
    return (client && client->software_rdma()) || (server && server->software_rdma());
}

std::set<std::string> RunPath::software_drivers() const {
    std::set<std::string> out;
    for (const auto *side : {&client, &server})
        if (*side)
            for (const auto &d : (*side)->devices)
                if (d.software()) out.insert(d.driver);
    return out;
}

Json side_path_json(const SidePath &s) {
    Json devices = Json::array();
    for (const auto &d : s.devices)
        devices.push_back(device_json(d));
    Json rdma = nullptr;
    if (s.rdma && !s.devices.empty())
        rdma = {{"device", s.devices.front().name},
                {"port", s.devices.front().port},
                {"gid_index", s.gid_index},
                {"gid_type", s.gid_type}};
    Json out = {{"address", s.address},
                {"interface", interface_json(s.interface)},
                {"rdma", rdma},
                {"software_rdma", s.software_rdma()},
                {"devices", devices}};
    if (s.affinity) out["affinity"] = affinity_json(*s.affinity);
    return out;
}

Json run_path_json(const RunPath &p) {
    return {{"software_rdma", p.software_rdma()},
            {"client", p.client ? side_path_json(*p.client) : Json(nullptr)},
            {"server", p.server ? side_path_json(*p.server) : Json(nullptr)}};
}

SidePath side_path_from_json(const Json &j) {
    SidePath s;
    s.address = text_of(j, "address");
    if (j.contains("interface") && j.at("interface").is_object()) {
        const Json &i = j.at("interface");
        s.interface = {text_of(i, "name"), text_of(i, "driver"),    text_of(i, "speed"),
                       text_of(i, "mtu"),  text_of(i, "numa_node"), text_of(i, "pci_address")};
    }
    if (j.contains("devices") && j.at("devices").is_array())
        for (const Json &d : j.at("devices")) {
            RdmaDevice dev;
            dev.name = text_of(d, "name");
            dev.driver = text_of(d, "driver");
            dev.firmware = text_of(d, "firmware");
            dev.node_guid = text_of(d, "node_guid");
            if (d.contains("port") && d.at("port").is_number_unsigned())
                dev.port = d.at("port").get<unsigned>();
            dev.port_state = text_of(d, "port_state");
            dev.link_layer = text_of(d, "link_layer");
            dev.active_mtu = text_of(d, "active_mtu");
            dev.rate = text_of(d, "rate");
            dev.netdev = text_of(d, "netdev");
            dev.numa_node = text_of(d, "numa_node");
            dev.pci_address = text_of(d, "pci_address");
            s.devices.push_back(std::move(dev));
        }
    if (j.contains("rdma") && j.at("rdma").is_object()) {
        const Json &r = j.at("rdma");
        s.rdma = true;
        if (r.contains("gid_index") && r.at("gid_index").is_number_integer())
            s.gid_index = r.at("gid_index").get<int>();
        s.gid_type = text_of(r, "gid_type");
    }
    if (j.contains("affinity") && j.at("affinity").is_object())
        s.affinity = affinity_from_json(j.at("affinity"));
    return s;
}

RunPath run_path_from_json(const Json &j) {
    RunPath p;
    if (!j.is_object()) return p;
    if (j.contains("client") && j.at("client").is_object())
        p.client = side_path_from_json(j.at("client"));
    if (j.contains("server") && j.at("server").is_object())
        p.server = side_path_from_json(j.at("server"));
    return p;
}

std::string side_affinity_text(const SideAffinity &a) {
    std::string line = "cpus " + a.cpus_allowed;
    if (!a.requested_cpus.empty()) line += " (asked " + a.requested_cpus + ")";
    line += ", seen " + a.cpus_seen + "; memory " + a.memory_policy;
    if (!a.memory_nodes.empty()) line += " " + a.memory_nodes;
    if (!a.requested_numa.empty()) {
        line += " (asked numa " + a.requested_numa;
        if (a.requested_numa != a.numa_node && !a.numa_node.empty())
            line += ": node " + a.numa_node;
        line += ")";
    }
    return line + ", seen node " + a.memory_node_seen;
}

std::string side_path_text(const SidePath &s) {
    const NetInterface &i = s.interface;
    const std::string netif =
        i.name + " (driver " + i.driver + ", speed " + i.speed + ", mtu " + i.mtu + ")";
    if (!s.rdma) return netif;
    if (s.devices.empty()) return "no RDMA device has " + s.address + "; " + netif;
    const RdmaDevice &d = s.devices.front();
    std::string line = d.name + " port " + std::to_string(d.port) + " GID " +
                       std::to_string(s.gid_index) + " " + s.gid_type + " (driver " + d.driver;
    if (d.software()) line += ", software RDMA";
    line += ", " + d.link_layer + ", " + d.port_state + ", rate " + d.rate + ", active mtu " +
            d.active_mtu + ", fw " + d.firmware + ") on " + netif;
    return line;
}

std::string software_rdma_notice(const std::set<std::string> &drivers) {
    std::string names, what;
    for (const auto &d : drivers) {
        names += (names.empty() ? "" : ", ") + d;
        what += std::string(what.empty() ? "" : " and ") +
                (d == "rxe" ? "Soft-RoCE's" : "soft-iWARP's");
    }
    return "software RDMA (" + names + "): these figures measure " + what +
           " software path in the kernel, not RDMA hardware";
}

} // namespace cmdbench

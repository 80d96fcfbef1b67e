#include "cmdbench/host/matrix/preflight.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace cmdbench {
namespace {

using Json = nlohmann::json;

std::string port_name(const RdmaDevice &d) {
    return d.name + " port " + std::to_string(d.port);
}

// One compared property of a port: its name in messages and how to read it.
struct Property {
    const char *what;
    std::function<std::string(const RdmaPort &)> value;
    // "is DOWN", "runs at 100 Gb/sec", ...: the node's value in a finding.
    std::function<std::string(const std::string &)> phrase;
};

const std::vector<Property> &properties() {
    static const std::vector<Property> all = {
        {"state", [](const RdmaPort &p) { return p.device.port_state; },
         [](const std::string &v) { return "is " + v; }},
        {"rate", [](const RdmaPort &p) { return p.device.rate; },
         [](const std::string &v) { return "runs at " + v; }},
        {"active MTU", [](const RdmaPort &p) { return p.device.active_mtu; },
         [](const std::string &v) { return "has MTU " + v; }},
        {"link layer", [](const RdmaPort &p) { return p.device.link_layer; },
         [](const std::string &v) { return "has link layer " + v; }},
        {"GIDs", [](const RdmaPort &p) { return std::to_string(p.gids); },
         [](const std::string &v) { return "has " + v + " GIDs"; }},
    };
    return all;
}

// The most common value and how many have it (ties: the first in order).
std::pair<std::string, size_t> most_common(const std::map<std::string, size_t> &counts) {
    std::pair<std::string, size_t> best{"", 0};
    for (const auto &[value, n] : counts)
        if (n > best.second) best = {value, n};
    return best;
}

std::string of_nodes(size_t n, size_t all) {
    return std::to_string(n) + " of " + std::to_string(all) + " node" + (all == 1 ? "" : "s");
}

// The nodes, each once, in the order first seen.
std::vector<const NodePorts *> distinct(const std::vector<NodePorts> &nodes) {
    std::vector<const NodePorts *> out;
    std::set<std::string> seen;
    for (const NodePorts &n : nodes)
        if (seen.insert(n.node).second) out.push_back(&n);
    return out;
}

void compare_port(const std::string &key, const std::vector<const NodePorts *> &nodes,
                  Preflight &out) {
    std::map<std::string, const RdmaPort *> has; // node -> its port `key`
    for (const NodePorts *n : nodes)
        for (const RdmaPort &p : n->ports)
            if (port_name(p.device) == key) has[n->node] = &p;
    const size_t all = nodes.size();
    if (has.size() * 2 <= all) { // a minority's port: those nodes are the odd ones
        for (const auto &[node, p] : has)
            out.findings.push_back(node + ": has " + key + ", which " + of_nodes(has.size(), all) +
                                   " have");
        return;
    }
    for (const NodePorts *n : nodes)
        if (!has.count(n->node))
            out.findings.push_back(n->node + ": has no " + key + " (" + of_nodes(has.size(), all) +
                                   " have it)");
    std::string summary = key + ":";
    for (const Property &prop : properties()) {
        std::map<std::string, size_t> counts;
        for (const auto &[node, p] : has)
            ++counts[prop.value(*p)];
        const auto [usual, n] = most_common(counts);
        summary += std::string(summary.back() == ':' ? " " : ", ") + prop.what + " " + usual;
        for (const auto &[node, p] : has)
            if (prop.value(*p) != usual)
                out.findings.push_back(node + ": " + key + " " + prop.phrase(prop.value(*p)) +
                                       " where " + of_nodes(n, all) + " have " + usual);
    }
    out.majority.push_back(summary + " (" + of_nodes(has.size(), all) + ")");
}

} // namespace

Json ports_json(const std::vector<RdmaPort> &ports) {
    Json out = Json::array();
    for (const RdmaPort &p : ports) {
        const RdmaDevice &d = p.device;
        out.push_back({{"device", d.name},
                       {"port", d.port},
                       {"state", d.port_state},
                       {"rate", d.rate},
                       {"active_mtu", d.active_mtu},
                       {"link_layer", d.link_layer},
                       {"driver", d.driver},
                       {"netdev", d.netdev},
                       {"gids", p.gids}});
    }
    return out;
}

std::vector<RdmaPort> ports_from_json(const Json &j) {
    std::vector<RdmaPort> out;
    if (!j.is_array()) return out;
    for (const Json &e : j) {
        try {
            RdmaPort p;
            p.device.name = e.at("device").get<std::string>();
            p.device.port = e.at("port").get<unsigned>();
            p.device.port_state = e.at("state").get<std::string>();
            p.device.rate = e.at("rate").get<std::string>();
            p.device.active_mtu = e.at("active_mtu").get<std::string>();
            p.device.link_layer = e.at("link_layer").get<std::string>();
            p.device.driver = e.value("driver", std::string(kUnknown));
            p.device.netdev = e.value("netdev", std::string(kUnknown));
            p.gids = e.at("gids").get<int>();
            out.push_back(std::move(p));
        } catch (const Json::exception &) {
        }
    }
    return out;
}

Preflight compare_nodes(const std::vector<NodePorts> &nodes) {
    Preflight out;
    const std::vector<const NodePorts *> distinct_nodes = distinct(nodes);
    std::set<std::string> keys;
    for (const NodePorts *n : distinct_nodes)
        for (const RdmaPort &p : n->ports)
            keys.insert(port_name(p.device));
    for (const std::string &key : keys)
        compare_port(key, distinct_nodes, out);
    return out;
}

} // namespace cmdbench

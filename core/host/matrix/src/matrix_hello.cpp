#include "matrix_hello.hpp"

#include "matrix_address.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace cmdbench {

using Json = nlohmann::json;

std::string hello_text(const Hello &h) {
    Json rails = Json::array();
    for (const RailAddress &r : h.rails)
        rails.push_back({{"label", r.label}, {"address", r.address}});
    return Json{{"digest", h.digest},
                {"node", h.node},
                {"address", h.address},
                {"token", h.token},
                {"error", h.error},
                {"bad_input", h.bad_input},
                {"rails", rails},
                {"coordinator_port", h.coordinator_port},
                {"coordinator_token", h.coordinator_token}}
        .dump();
}

Hello parse_hello(const std::string &text) {
    Hello h;
    try {
        const Json j = Json::parse(text);
        h.digest = j.at("digest").get<std::string>();
        h.node = j.at("node").get<std::string>();
        h.address = j.at("address").get<std::string>();
        h.token = j.at("token").get<std::string>();
        h.error = j.at("error").get<std::string>();
        h.bad_input = j.value("bad_input", false);
        h.coordinator_port = j.value("coordinator_port", uint16_t(0));
        h.coordinator_token = j.value("coordinator_token", std::string());
        for (const Json &r : j.value("rails", Json::array()))
            h.rails.push_back(
                {r.at("label").get<std::string>(), r.at("address").get<std::string>()});
    } catch (const std::exception &e) {
        h.error = std::string("unreadable hello: ") + e.what();
    }
    return h;
}

std::vector<std::string> hello_problems(const std::vector<Hello> &peers, bool &usage) {
    std::vector<std::string> problems;
    std::vector<std::string> nodes;
    for (const Hello &h : peers)
        if (std::find(nodes.begin(), nodes.end(), h.node) == nodes.end()) nodes.push_back(h.node);
    for (size_t r = 0; r < peers.size(); ++r) {
        const Hello &h = peers[r];
        const std::string who = "rank " + std::to_string(r) + " (" + h.node + ")";
        if (h.digest != peers[0].digest) {
            usage = true;
            problems.push_back(who +
                               " runs a different scenario than rank 0 (effective scenario "
                               "digest " +
                               h.digest.substr(0, 12) + " vs " + peers[0].digest.substr(0, 12) +
                               "): give every rank the same file and --set options");
        }
        if (!h.error.empty()) problems.push_back(who + ": " + h.error);
        usage = usage || h.bad_input;
        const std::string addr_host = h.address.substr(0, h.address.rfind(':'));
        if (nodes.size() > 1 && !h.address.empty() && is_loopback_address(addr_host)) {
            usage = true;
            problems.push_back(who + " would serve on the loopback address " + h.address +
                               ", but the job spans " + std::to_string(nodes.size()) +
                               " nodes: set [matrix] address, or make the node name resolve to "
                               "an address the other nodes reach");
        }
        if (h.rails.size() != peers[0].rails.size())
            problems.push_back(who + " has " + rails_text(h.rails) + ", rank 0 (" + peers[0].node +
                               ") " + rails_text(peers[0].rails) +
                               ": rails = \"all\" needs as many active RDMA devices on every "
                               "node");
    }
    return problems;
}

} // namespace cmdbench

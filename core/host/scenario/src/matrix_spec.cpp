#include "cmdbench/host/scenario/matrix_spec.hpp"

#include "cmdbench/control/host_port.hpp"
#include "cmdbench/host/params/params.hpp"

#include <cctype>

namespace cmdbench {

std::string matrix_toml(const MatrixSpec &m) {
    if (!m.given) return "";
    std::string out =
        "[matrix]\npattern = " + to_text(ParamValue{std::string(to_string(m.pattern))}) +
        "\none_pair_at_a_time = " + (m.one_pair_at_a_time ? "true" : "false") + "\n";
    if (!m.address.empty()) out += "address = " + to_text(ParamValue{m.address}) + "\n";
    if (!m.interface.empty()) out += "interface = " + to_text(ParamValue{m.interface}) + "\n";
    if (!m.device.empty()) out += "device = " + to_text(ParamValue{m.device}) + "\n";
    if (m.dead_after != MatrixSpec::kDefaultDeadAfter)
        out += "dead_after = " + to_text(ParamValue{m.dead_after}) + "\n";
    if (m.worst_links != MatrixInfo::kDefaultWorstLinks)
        out += "worst_links = " + std::to_string(m.worst_links) + "\n";
    return out;
}

Status check_matrix_address(const std::string &address) {
    if (address.empty())
        return unexpected("must not be empty (leave it out for the node's own address)");
    if (address.size() > 253) return unexpected("is longer than 253 characters");
    for (char c : address)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == ':' ||
              c == '_' || c == '%'))
            return unexpected("expects one host name or IP address without a port, got '" +
                              address + "'");
    if (names_every_address(address))
        return unexpected(
            "is published for the other ranks to connect to: give an address of this node, "
            "not the wildcard '" +
            address + "'");
    return {};
}

Status check_matrix_name(const std::string &name) {
    if (name.empty()) return unexpected("must not be empty");
    // IFNAMSIZ - 1 for interfaces; RDMA device names are as short.
    if (name.size() > 63) return unexpected("is longer than 63 characters");
    if (name == "." || name == "..") return unexpected("expects a name, got '" + name + "'");
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' ||
              c == ':' || c == '@'))
            return unexpected(
                "expects an interface or device name (letters, digits, . - _ : @), got '" + name +
                "'");
    return {};
}

} // namespace cmdbench

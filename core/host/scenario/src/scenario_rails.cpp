#include "scenario_rails.hpp"

#include "cmdbench/control/host_port.hpp"
#include "cmdbench/host/machine/link_context.hpp"
#include "cmdbench/host/machine/rdma_rails.hpp"
#include "cmdbench/host/params/toml_kind.hpp"
#include "scenario_fail.hpp"
#include "toml_text.hpp"

#include <set>

namespace cmdbench {
namespace {

[[noreturn]] void fail(const std::string &path, const toml::source_region &where,
                       const std::string &message) {
    fail_at_node(path, where, message);
}

const cmdbench_param *find_decl(const std::vector<cmdbench_param> &decls, const std::string &key) {
    for (const cmdbench_param &d : decls)
        if (key == d.name) return &d;
    return nullptr;
}

std::string names_of(const RailParams &p) {
    std::set<std::string> names = {"label", "server"};
    for (const auto *decls : {&p.test, &p.transport})
        for (const cmdbench_param &d : *decls)
            names.insert(d.name);
    std::string out;
    for (const std::string &n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

ParamValue parsed(const cmdbench_param &decl, const toml::node &value, const std::string &key,
                  const std::string &path) {
    auto v = parse_text(decl, node_text(value));
    if (!v) fail(path, value.source(), "rail parameter '" + key + "': " + v.error());
    return *v;
}

// What a rail's address is on, for its label: the RDMA device whose GID
// table has it (an RDMA run), else the interface; "" when none has it.
std::string where_is(const std::string &address, bool rdma) {
    if (address.empty()) return {};
    if (rdma) {
        const SidePath side = local_path(address, true);
        if (!side.devices.empty() && side.devices.front().name != kUnknown)
            return side.devices.front().name;
    }
    return interface_with_address(address);
}

Rail read_rail(const toml::table &t, size_t index, const std::string &path,
               const RailParams &params) {
    Rail rail;
    for (auto &&[k, value] : t) {
        const std::string key(k.str());
        if (key == "label" || key == "server") {
            auto s = value.value_exact<std::string>();
            if (!s)
                fail(path, value.source(),
                     "'" + key + "' expects a string, got " + node_kind(value));
            if (key == "label") {
                if (s->empty()) fail(path, value.source(), "'label' must not be empty");
                rail.label = *s;
            } else {
                const Expected<HostPort> hp = parse_host_port(*s, 1);
                if (s->empty() || !hp)
                    fail(path, value.source(),
                         "'server' expects " + std::string(kHostPortForms) + ", got \"" + *s +
                             "\"" + (hp ? "" : ": " + hp.error()));
                rail.server = *s;
            }
        } else if (const cmdbench_param *d = find_decl(params.test, key)) {
            rail.test_params[key] = parsed(*d, value, key, path);
        } else if (const cmdbench_param *d = find_decl(params.transport, key)) {
            rail.transport_params[key] = parsed(*d, value, key, path);
        } else {
            fail(path, k.source(),
                 "unknown key '" + key + "' in a rail of " + params.owner +
                     " (a rail sets: " + names_of(params) + ")");
        }
    }
    if (rail.server.empty() && rail.test_params.empty() && rail.transport_params.empty())
        fail(path, t.source(),
             "rail " + std::to_string(index + 1) +
                 " sets nothing that puts the run on it: give it a parameter (such as "
                 "bind_address) or a server");
    if (rail.label.empty()) {
        // The RDMA device or interface that has the rail's bind_address,
        // else its server.
        for (const auto *p : {&rail.test_params, &rail.transport_params}) {
            auto it = p->find("bind_address");
            if (it != p->end() && rail.label.empty())
                if (const auto *addr = std::get_if<std::string>(&it->second))
                    rail.label = where_is(*addr, params.rdma);
        }
        if (rail.label.empty()) rail.label = rail.server;
        if (rail.label.empty()) rail.label = "rail " + std::to_string(index + 1);
    }
    return rail;
}

std::vector<Rail> all_rdma_rails(const toml::node &node, const std::string &path,
                                 const RailParams &params) {
    const bool test_binds = find_decl(params.test, "bind_address");
    if (!test_binds && !find_decl(params.transport, "bind_address"))
        fail(path, node.source(),
             "rails = \"all\" puts each rail's address in bind_address, which " + params.owner +
                 " does not have: list the rails instead");
    std::vector<Rail> out;
    for (const RdmaRail &r : active_rdma_rails("/sys", ibv_gid_table)) {
        Rail rail;
        rail.label = r.device;
        (test_binds ? rail.test_params : rail.transport_params)["bind_address"] = r.address;
        rail.client_only.insert("bind_address");
        out.push_back(rail);
    }
    if (out.empty())
        fail(path, node.source(),
             "rails = \"all\": this machine has no active RDMA port with an IPv4 address");
    if (out.size() > kMaxRails) out.resize(kMaxRails);
    return out;
}

} // namespace

std::vector<Rail> read_rails(const toml::node &node, const std::string &path,
                             const RailParams &params) {
    if (auto s = node.value_exact<std::string>()) {
        if (*s != "all")
            fail(path, node.source(),
                 "'rails' expects \"all\" or an array of tables, got \"" + *s + "\"");
        return all_rdma_rails(node, path, params);
    }
    const toml::array *arr = node.as_array();
    if (!arr)
        fail(path, node.source(),
             "'rails' expects \"all\" or an array of tables, got " + node_kind(node));
    if (arr->size() < 2)
        fail(path, node.source(),
             "'rails' needs at least 2 rails (got " + std::to_string(arr->size()) + ")");
    if (arr->size() > kMaxRails)
        fail(path, node.source(),
             "'rails' has " + std::to_string(arr->size()) + " rails; at most " +
                 std::to_string(kMaxRails));
    std::vector<Rail> out;
    std::set<std::string> labels;
    for (size_t i = 0; i < arr->size(); ++i) {
        const toml::node &e = (*arr)[i];
        const toml::table *t = e.as_table();
        if (!t)
            fail(path, e.source(),
                 "'rails' element " + std::to_string(i + 1) + " expects a table, got " +
                     node_kind(e));
        out.push_back(read_rail(*t, i, path, params));
        if (!labels.insert(out.back().label).second)
            fail(path, e.source(),
                 "two rails are labelled \"" + out.back().label + "\": give them distinct labels");
    }
    return out;
}

} // namespace cmdbench

#include "scenario_placement.hpp"

#include "cmdbench/host/machine/cpu_list.hpp"
#include "cmdbench/host/params/params.hpp"
#include "cmdbench/host/params/toml_kind.hpp"
#include "cmdbench/host/scenario/scenario.hpp"

#include <toml++/toml.h>

namespace cmdbench {
namespace {

constexpr unsigned kMaxNode = 1023;

[[noreturn]] void fail(const std::string &at, const std::string &message) {
    throw ScenarioError(at + ": " + message);
}

// The value's node; a bare word (from --set: `--set cpus=0-3`) is a string.
// `doc` keeps the node alive.
const toml::node *value_node(const std::string &text, const std::string &at, const char *key,
                             toml::table &doc, const std::string &expects) {
    if (const Status fit = check_value_text(text); !fit)
        fail(at, "'" + std::string(key) + "' " + fit.error());
    if (text.find_first_of("\r\n") == std::string::npos) {
        try {
            doc = toml::parse("v = " + text, std::string_view("value"));
            return doc.get("v");
        } catch (const toml::parse_error &) {
        }
    }
    const bool bare = !text.empty() && std::string("\"'[{").find(text[0]) == std::string::npos;
    if (bare) {
        doc.insert_or_assign("v", text);
        return doc.get("v");
    }
    fail(at, "'" + std::string(key) + "' expects " + expects + ", got " +
                 (text.empty() ? "nothing" : "'" + text + "', which is not a TOML value"));
}

// Calls `one(side_label, node, side)` for each side the value names.
template <class One>
void per_side(const toml::node &v, const char *key, const std::string &at, RunPlacement &into,
              One one) {
    const toml::table *t = v.as_table();
    if (!t) {
        one(std::string("'") + key + "'", v, into.client);
        one(std::string("'") + key + "'", v, into.server);
        return;
    }
    if (t->empty())
        fail(at, std::string("'") + key + "' is an empty table: name a side, client or server");
    for (auto &&[side, node] : *t) {
        const std::string name(side.str());
        const std::string label = std::string("'") + key + "' for the " + name;
        if (name == "client")
            one(label, node, into.client);
        else if (name == "server")
            one(label, node, into.server);
        else
            fail(at,
                 std::string("'") + key + "' has no side '" + name + "' (sides: client, server)");
    }
}

// A single CPU given as a TOML integer, as list text. Checked here, not by
// the list parser, so that no negative value is ever negated or re-signed.
std::string cpu_number(int64_t cpu, const std::string &label, const std::string &at) {
    if (cpu < 0 || cpu > int64_t(kMaxCpu))
        fail(at, label + " must be a CPU number in [0, " + std::to_string(kMaxCpu) +
                     "] or a CPU list like \"0-3,8\", got " + std::to_string(cpu));
    return std::to_string(cpu);
}

void set_where(SidePlacement &side, const char *key, const std::string &at) {
    (std::string(key) == "cpus" ? side.cpus_at : side.numa_at) = at;
}

} // namespace

void read_cpus_setting(const std::string &text, const std::string &at, RunPlacement &into) {
    const std::string expects =
        "a CPU list like \"0-3,8\", a CPU number or a table { client = ..., server = ... }";
    toml::table doc;
    const toml::node *v = value_node(text, at, "cpus", doc, expects);
    per_side(*v, "cpus", at, into,
             [&](const std::string &label, const toml::node &n, SidePlacement &side) {
                 std::string list;
                 if (auto s = n.value_exact<std::string>())
                     list = *s;
                 else if (auto i = n.value_exact<int64_t>())
                     list = cpu_number(*i, label, at);
                 else
                     fail(at, label + " expects " + expects + ", got " + node_kind(n));
                 auto cpus = parse_cpu_list(list);
                 if (!cpus) fail(at, label + " is not a CPU list like \"0-3,8\": " + cpus.error());
                 side.cpus = *cpus;
                 set_where(side, "cpus", at);
             });
}

void read_numa_setting(const std::string &text, const std::string &at, RunPlacement &into) {
    const std::string expects =
        "\"device\", a NUMA node number or a table { client = ..., server = ... }";
    toml::table doc;
    const toml::node *v = value_node(text, at, "numa", doc, expects);
    per_side(*v, "numa", at, into,
             [&](const std::string &label, const toml::node &n, SidePlacement &side) {
                 if (auto s = n.value_exact<std::string>()) {
                     if (*s != "device")
                         fail(at, label + " expects " + expects + ", got \"" + *s + "\"");
                     side.numa = SidePlacement::Numa::Device;
                 } else if (auto i = n.value_exact<int64_t>()) {
                     if (*i < 0 || *i > int64_t(kMaxNode))
                         fail(at, label + " must be \"device\" or a node in [0, " +
                                      std::to_string(kMaxNode) + "], got " + std::to_string(*i));
                     side.numa = SidePlacement::Numa::Node;
                     side.node = unsigned(*i);
                 } else {
                     fail(at, label + " expects " + expects + ", got " + node_kind(n));
                 }
                 set_where(side, "numa", at);
             });
}

std::string placement_toml(const RunPlacement &p) {
    std::string out;
    const auto line = [&](const char *key, const std::string &client, const std::string &server,
                          bool numeric_client, bool numeric_server) {
        const auto value = [](const std::string &v, bool numeric) {
            return numeric ? v : to_text(ParamValue{v});
        };
        if (client.empty() && server.empty()) return;
        if (client == server) {
            out += std::string(key) + " = " + value(client, numeric_client) + "\n";
            return;
        }
        std::string sides;
        if (!client.empty()) sides += "client = " + value(client, numeric_client);
        if (!server.empty())
            sides += std::string(sides.empty() ? "" : ", ") +
                     "server = " + value(server, numeric_server);
        out += std::string(key) + " = { " + sides + " }\n";
    };
    line("cpus", p.client.cpus_text(), p.server.cpus_text(), false, false);
    line("numa", p.client.numa_text(), p.server.numa_text(),
         p.client.numa == SidePlacement::Numa::Node, p.server.numa == SidePlacement::Numa::Node);
    return out;
}

} // namespace cmdbench

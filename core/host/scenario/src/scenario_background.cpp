#include "scenario_background.hpp"

#include "cmdbench/host/params/toml_kind.hpp"
#include "cmdbench/host/plugins/run_keys.hpp"
#include "scenario_fail.hpp"

#include <set>

namespace cmdbench {
namespace {

[[noreturn]] void fail(const std::string &path, const toml::source_region &where,
                       const std::string &message) {
    fail_at_node(path, where, message);
}

const std::set<std::string> kBackgroundKeys = {"test", "transport", "params", "flows", "rail"};

unsigned read_flows(const toml::node &n, const std::string &path) {
    const auto v = n.value_exact<int64_t>();
    if (!v || *v < 1 || *v > int64_t(kMaxBackgroundFlows))
        fail(path, n.source(),
             "'flows' of 'background' must be an integer in [1, " +
                 std::to_string(kMaxBackgroundFlows) + "], got " +
                 (v ? std::to_string(*v) : node_kind(n)));
    return unsigned(*v);
}

// The background's parameters: its test's and transport's; a run key is
// not a parameter here.
const toml::table *check_params(const toml::node &params, const std::string &path) {
    const toml::table *t = params.as_table();
    if (!t)
        fail(path, params.source(),
             "'params' of 'background' expects a table of the background test's parameters, "
             "got " +
                 node_kind(params));
    for (auto &&[k, value] : *t) {
        (void)value;
        const std::string key(k.str());
        if (key == "background")
            fail(path, k.source(), "a background cannot have a background of its own");
        if (kReservedRunKeys.count(key))
            fail(path, k.source(),
                 "'" + key +
                     "' is a run key, not a parameter of the background's test; "
                     "'background' takes test, transport, params, flows");
    }
    return t;
}

void check_keys(const toml::table &t, const std::string &path) {
    for (auto &&[k, value] : t) {
        const std::string key(k.str());
        if (key == "rail")
            fail(path, k.source(),
                 "'rail' of 'background' is not supported: put the background on another rail "
                 "with its own parameters, e.g. params = { bind_address = \"10.0.2.1\" }");
        if (!kBackgroundKeys.count(key))
            fail(path, k.source(),
                 "unknown key '" + key + "' in 'background' (it takes test, transport, " +
                     "params, flows)");
    }
}

} // namespace

std::shared_ptr<const Background> read_background(const toml::node &node, const std::string &path,
                                                  bool run_has_rails,
                                                  const ResolveBackground &resolve) {
    if (node.is_array())
        fail(path, node.source(), "'background' takes one table: one kind of traffic per run");
    const toml::table *t = node.as_table();
    if (!t)
        fail(path, node.source(),
             "'background' expects a table (test, transport, params, flows), got " +
                 node_kind(node));
    if (run_has_rails)
        fail(path, node.source(),
             "'background' cannot be combined with 'rails' in one run: measure a rail under "
             "load in a run of its own (its bind_address as a parameter)");
    check_keys(*t, path);
    auto b = std::make_shared<Background>();
    const toml::table *params = nullptr;
    if (const toml::node *p = t->get("params")) params = check_params(*p, path);
    if (const toml::node *flows = t->get("flows")) b->flows = read_flows(*flows, path);
    b->spec = resolve(*t, params);
    return b;
}

std::string background_toml(const Background &b) {
    std::string out = "{test = " + to_text(ParamValue{b.spec.test});
    if (!b.spec.transport.empty()) out += ", transport = " + to_text(ParamValue{b.spec.transport});
    out += ", flows = " + std::to_string(b.flows) + ", params = {";
    bool first = true;
    for (const auto *params : {&b.spec.test_params, &b.spec.transport_params})
        for (const auto &[key, value] : *params) {
            if (params == &b.spec.transport_params && b.spec.test_params.count(key)) continue;
            out += std::string(first ? "" : ", ") + key + " = " + to_text(value);
            first = false;
        }
    return out + "}}";
}

} // namespace cmdbench

#include "scenario_matrix.hpp"

#include "cmdbench/host/params/toml_kind.hpp"
#include "cmdbench/host/scenario/scenario.hpp"

#include <optional>
#include <set>

namespace cmdbench {
namespace {

const std::set<std::string> kMatrixKeys = {
    "pattern", "one_pair_at_a_time", "address", "interface", "device", "dead_after", "worst_links"};

std::string at(const std::string &path, const toml::source_position &pos) {
    return path + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column);
}

[[noreturn]] void fail(const std::string &path, const toml::node &n, const std::string &what) {
    throw ScenarioError(at(path, n.source().begin) + ": " + what);
}

std::string string_of(const std::string &path, const std::string &key, const toml::node &n) {
    auto s = n.value_exact<std::string>();
    if (!s) fail(path, n, "'" + key + "' expects a string, got " + node_kind(n));
    return *s;
}

double dead_after_of(const std::string &path, const toml::node &n) {
    std::optional<double> v = n.value_exact<double>();
    if (auto i = n.value_exact<int64_t>()) v = double(*i);
    if (!v) fail(path, n, "'dead_after' expects a number of seconds, got " + node_kind(n));
    if (!(*v >= MatrixSpec::kMinDeadAfter && *v <= MatrixSpec::kMaxDeadAfter))
        fail(path, n,
             "'dead_after' must be in [" + std::to_string(int(MatrixSpec::kMinDeadAfter)) + ", " +
                 std::to_string(int(MatrixSpec::kMaxDeadAfter)) + "] seconds, got " +
                 to_text(ParamValue{*v}));
    return *v;
}

unsigned worst_links_of(const std::string &path, const toml::node &n) {
    const auto v = n.value_exact<int64_t>();
    const std::string range = "[1, " + std::to_string(MatrixInfo::kMaxWorstLinks) + "]";
    if (!v) fail(path, n, "'worst_links' expects an integer in " + range + ", got " + node_kind(n));
    if (*v < 1 || *v > int64_t(MatrixInfo::kMaxWorstLinks))
        fail(path, n, "'worst_links' must be in " + range + ", got " + std::to_string(*v));
    return unsigned(*v);
}

} // namespace

MatrixSpec read_matrix_table(const toml::table &root, const std::string &path) {
    MatrixSpec m;
    const toml::node *node = root.get("matrix");
    if (!node) return m;
    const toml::table *table = node->as_table();
    if (!table) fail(path, *node, "'matrix' expects a table ([matrix]), got " + node_kind(*node));
    m.given = true;
    std::string where_key; // the one of address, interface, device given
    for (auto &&[key, value] : *table) {
        const std::string k(key.str());
        if (!kMatrixKeys.count(k))
            throw ScenarioError(
                at(path, key.source().begin) + ": unknown key '" + k +
                "' in [matrix] (keys: pattern, one_pair_at_a_time, address, interface, "
                "device, dead_after, worst_links)");
        if (k == "pattern") {
            const std::string name = string_of(path, k, value);
            auto p = matrix_pattern_from(name);
            if (!p)
                fail(path, value,
                     "'pattern' must be one of " + std::string(kMatrixPatternNames) + ", got '" +
                         name + "'");
            m.pattern = *p;
        } else if (k == "one_pair_at_a_time") {
            auto b = value.value_exact<bool>();
            if (!b)
                fail(path, value,
                     "'one_pair_at_a_time' expects a boolean, got " + node_kind(value));
            m.one_pair_at_a_time = *b;
        } else if (k == "dead_after") {
            m.dead_after = dead_after_of(path, value);
        } else if (k == "worst_links") {
            m.worst_links = worst_links_of(path, value);
        } else {
            // address, interface or device: where each rank's server listens.
            if (!where_key.empty())
                fail(path, value,
                     "'" + k + "' and '" + where_key +
                         "' both say where the servers listen: give one of address, interface, "
                         "device");
            where_key = k;
            const std::string text = string_of(path, k, value);
            const Status fit =
                k == "address" ? check_matrix_address(text) : check_matrix_name(text);
            if (!fit) fail(path, value, "'" + k + "' " + fit.error());
            (k == "address" ? m.address : k == "interface" ? m.interface : m.device) = text;
        }
    }
    return m;
}

} // namespace cmdbench

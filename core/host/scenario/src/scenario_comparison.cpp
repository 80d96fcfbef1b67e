#include "scenario_comparison.hpp"

#include "cmdbench/host/params/params.hpp"
#include "cmdbench/host/params/toml_kind.hpp"
#include "cmdbench/host/scenario/scenario.hpp"

#include <cmath>
#include <set>

namespace cmdbench {
namespace {

const std::set<std::string> kComparisonKeys = {"order", "spread_limit"};

std::string at(const std::string &path, const toml::source_position &pos) {
    return path + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column);
}

[[noreturn]] void fail(const std::string &path, const toml::node &n, const std::string &what) {
    throw ScenarioError(at(path, n.source().begin) + ": " + what);
}

std::string limit_text(double v) {
    return to_text(ParamValue{v});
}

RunOrder order_of(const std::string &path, const toml::node &n) {
    auto name = n.value_exact<std::string>();
    if (!name) fail(path, n, "'order' expects a string, got " + node_kind(n));
    auto order = run_order_from(*name);
    if (!order)
        fail(path, n,
             "'order' must be one of " + std::string(kRunOrderNames) + ", got '" + *name + "'");
    return *order;
}

double spread_limit_of(const std::string &path, const toml::node &n) {
    std::optional<double> v;
    if (auto i = n.value_exact<int64_t>()) v = double(*i);
    if (auto d = n.value_exact<double>()) v = *d;
    if (!v) fail(path, n, "'spread_limit' expects a number, got " + node_kind(n));
    if (!(*v >= kMinSpreadLimit && *v <= kMaxSpreadLimit))
        fail(path, n,
             "'spread_limit' must be between " + limit_text(kMinSpreadLimit) + " and " +
                 limit_text(kMaxSpreadLimit) +
                 " ((max - min) / median of a variant's repeats), "
                 "got " +
                 (std::isfinite(*v) ? limit_text(*v) : std::string("a non-finite number")));
    return *v;
}

} // namespace

ComparisonSettings read_comparison_table(const toml::table &root, const std::string &path) {
    ComparisonSettings c;
    const toml::node *node = root.get("comparison");
    if (!node) return c;
    const toml::table *table = node->as_table();
    if (!table)
        fail(path, *node, "'comparison' expects a table ([comparison]), got " + node_kind(*node));
    c.given = true;
    for (auto &&[key, value] : *table) {
        const std::string k(key.str());
        if (!kComparisonKeys.count(k))
            throw ScenarioError(at(path, key.source().begin) + ": unknown key '" + k +
                                "' in [comparison] (keys: order, spread_limit)");
        if (k == "order")
            c.order = order_of(path, value);
        else
            c.spread_limit = spread_limit_of(path, value);
    }
    return c;
}

std::string comparison_toml(const ComparisonSettings &c) {
    if (!c.given) return "";
    return "[comparison]\norder = " + to_text(ParamValue{std::string(to_string(c.order))}) +
           "\nspread_limit = " + limit_text(c.spread_limit) + "\n";
}

} // namespace cmdbench

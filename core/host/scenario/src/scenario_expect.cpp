// `expect = { link_fraction = 0.9, latency_p99 = { max = 20 } }`: read and
// checked before anything runs (scenario_expect.hpp).
#include "scenario_expect.hpp"

#include "cmdbench/host/params/params.hpp"
#include "cmdbench/host/params/toml_kind.hpp"
#include "cmdbench/host/scenario/scenario.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

namespace cmdbench {
namespace {

std::string at(const std::string &path, const toml::source_position &pos) {
    return path + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column);
}

[[noreturn]] void fail(const std::string &path, const toml::node &n, const std::string &what) {
    throw ScenarioError(at(path, n.source().begin) + ": " + what);
}

// The comparison table's labels, which read like metric names but are not
// the ones expectations take.
const std::map<std::string, std::string> kLabelIds = {
    {"lat p50", "latency_p50"}, {"lat p99", "latency_p99"}, {"conn rate", "conn_rate"},
    {"step", "step_time"},      {"cpu/GB", "cpu_per_gb"},   {"cpu/conn", "cpu_per_conn"}};

std::string number_text(double v) {
    std::string t = to_text(ParamValue{v});
    if (t.size() > 2 && t.compare(t.size() - 2, 2, ".0") == 0) t.resize(t.size() - 2);
    return t;
}

double number_of(const std::string &path, const toml::node &n, const std::string &label) {
    std::optional<double> v;
    if (auto i = n.value_exact<int64_t>()) v = double(*i);
    if (auto d = n.value_exact<double>()) v = *d;
    if (!v) fail(path, n, label + " expects a number, got " + node_kind(n));
    if (!std::isfinite(*v)) fail(path, n, label + " must be a finite number");
    return *v;
}

double positive_of(const std::string &path, const toml::node &n, const std::string &label) {
    const double v = number_of(path, n, label);
    if (v <= 0) fail(path, n, label + " must be above 0, got " + number_text(v));
    return v;
}

std::set<std::string> bound_keys() {
    return {std::begin(kBoundKeys), std::end(kBoundKeys)};
}

MetricBounds bounds_of(const std::string &path, const std::string &metric, const toml::node &node,
                       std::string &ratio_at) {
    const std::string label = "'expect." + metric + "'";
    const toml::table *t = node.as_table();
    if (!t)
        fail(path, node,
             label +
                 " expects a table of bounds, e.g. { max = 20 } (keys: min, max, min_ratio, "
                 "max_ratio), got " +
                 node_kind(node));
    if (t->empty())
        fail(path, node, label + " has no bound (keys: min, max, min_ratio, max_ratio)");
    MetricBounds b;
    for (auto &&[key, value] : *t) {
        const std::string k(key.str());
        const std::string what = "'expect." + metric + "." + k + "'";
        if (k == "min")
            b.min = number_of(path, value, what);
        else if (k == "max")
            b.max = number_of(path, value, what);
        else if (k == "min_ratio" || k == "max_ratio") {
            (k == "min_ratio" ? b.min_ratio : b.max_ratio) = positive_of(path, value, what);
            if (ratio_at.empty()) ratio_at = at(path, key.source().begin);
        } else
            throw ScenarioError(at(path, key.source().begin) + ": unknown bound '" + k + "' in " +
                                label + " (keys: min, max, min_ratio, max_ratio)" +
                                suggestion(k, bound_keys()));
    }
    if (b.min && b.max && *b.min > *b.max)
        fail(path, node,
             label + ": min " + number_text(*b.min) + " is above max " + number_text(*b.max));
    if (b.min_ratio && b.max_ratio && *b.min_ratio > *b.max_ratio)
        fail(path, node,
             label + ": min_ratio " + number_text(*b.min_ratio) + " is above max_ratio " +
                 number_text(*b.max_ratio));
    return b;
}

// A metric name: a built-in id, or a name a plugin's rows will carry. A
// near miss of a built-in one is a typo, caught here rather than as an
// "unknown" verdict after the runs.
void check_metric_name(const std::string &path, const toml::key &key) {
    const std::string k(key.str());
    if (builtin_metric_ids().count(k)) return;
    const std::string where = at(path, key.source().begin) + ": ";
    if (auto id = kLabelIds.find(k); id != kLabelIds.end())
        throw ScenarioError(where + "unknown metric '" + k + "' in 'expect' (did you mean '" +
                            id->second + "'? expectations name metrics by id)");
    std::set<std::string> names = builtin_metric_ids();
    names.insert("link_fraction");
    const std::string near = suggestion(k, names);
    if (!near.empty()) throw ScenarioError(where + "unknown metric '" + k + "' in 'expect'" + near);
}

bool bare_key(const std::string &k) {
    if (k.empty()) return false;
    for (char c : k)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
    return true;
}

} // namespace

Expectations read_expect(const toml::node &node, const std::string &path, std::string &ratio_at) {
    const toml::table *t = node.as_table();
    if (!t)
        fail(path, node,
             "'expect' expects a table, e.g. expect = { link_fraction = 0.9 }, got " +
                 node_kind(node));
    // In file order: toml++ iterates keys sorted.
    std::vector<std::pair<toml::source_position, std::pair<const toml::key *, const toml::node *>>>
        entries;
    for (auto &&[key, value] : *t)
        entries.push_back({key.source().begin, {&key, &value}});
    std::sort(entries.begin(), entries.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    Expectations e;
    for (const auto &[pos, kv] : entries) {
        const std::string k(kv.first->str());
        if (k == "link_fraction") {
            e.link_fraction = positive_of(path, *kv.second, "'expect.link_fraction'");
            continue;
        }
        check_metric_name(path, *kv.first);
        e.metrics.emplace_back(k, bounds_of(path, k, *kv.second, ratio_at));
    }
    return e;
}

std::string expect_toml(const Expectations &e) {
    std::string out;
    auto add = [&](const std::string &key, const std::string &value) {
        out += (out.empty() ? "" : ", ") + key + " = " + value;
    };
    if (e.link_fraction) add("link_fraction", to_text(ParamValue{*e.link_fraction}));
    for (const auto &[metric, b] : e.metrics) {
        std::string bounds;
        for (const auto &[k, v] :
             {std::pair<const char *, const std::optional<double> &>{"min", b.min},
              {"max", b.max},
              {"min_ratio", b.min_ratio},
              {"max_ratio", b.max_ratio}})
            if (v)
                bounds +=
                    std::string(bounds.empty() ? "" : ", ") + k + " = " + to_text(ParamValue{*v});
        add(bare_key(metric) ? metric : to_text(ParamValue{metric}), "{ " + bounds + " }");
    }
    return "expect = { " + out + " }\n";
}

} // namespace cmdbench

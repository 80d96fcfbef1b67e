// `expect = { link_fraction = 0.9, latency_p99 = { max = 20 } }`: read and
// checked before anything runs (scenario_expect.hpp).
#include "scenario_expect.hpp"

#include "cmdbench/host/params/params.hpp"
#include "cmdbench/host/params/toml_kind.hpp"
#include "cmdbench/host/scenario/scenario.hpp"
#include "cmdbench/report/expect_rules.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace cmdbench {
namespace {

std::string at(const std::string &path, const toml::source_position &pos) {
    return path + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column);
}

// The comparison table's labels, which read like metric names but are not
// the ones expectations take.
const std::map<std::string, std::string> kLabelIds = {
    {"lat p50", "latency_p50"},   {"lat p99", "latency_p99"},  {"1-way p50", "latency_p50"},
    {"1-way p99", "latency_p99"}, {"conn rate", "conn_rate"},  {"step", "step_time"},
    {"cpu/GB", "cpu_per_gb"},     {"cpu/conn", "cpu_per_conn"}};

// A metric name: a built-in id, or a name a plugin's rows will carry. A
// near miss of a built-in one is a typo, caught here rather than as an
// "unknown" verdict after the runs: why it is refused, or "".
std::string typo_of_metric(const std::string &k) {
    if (builtin_metric_ids().count(k)) return "";
    if (auto id = kLabelIds.find(k); id != kLabelIds.end())
        return "unknown metric '" + k + "' in 'expect' (did you mean '" + id->second +
               "'? expectations name metrics by id)";
    std::set<std::string> names = builtin_metric_ids();
    names.insert("link_fraction");
    names.insert("retransmits");
    names.insert("counter_errors");
    const std::string near = suggestion(k, names);
    return near.empty() ? "" : "unknown metric '" + k + "' in 'expect'" + near;
}

// A TOML value as the expectation rules read it; a table's entries in file
// order (toml++ iterates keys sorted).
ExpectEntry entry_of(const std::string &path, const std::string &key, const std::string &key_at,
                     const toml::node &value) {
    ExpectEntry e{key, key_at, at(path, value.source().begin), node_kind(value), {}, false, {}};
    if (auto i = value.value_exact<int64_t>()) e.number = double(*i);
    if (auto d = value.value_exact<double>()) e.number = *d;
    const toml::table *t = value.as_table();
    if (!t) return e;
    e.is_table = true;
    std::vector<std::pair<toml::source_position, ExpectEntry>> entries;
    for (auto &&[k, v] : *t)
        entries.emplace_back(k.source().begin,
                             entry_of(path, std::string(k.str()), at(path, k.source().begin), v));
    std::sort(entries.begin(), entries.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    for (auto &[pos, entry] : entries)
        e.table.push_back(std::move(entry));
    return e;
}

bool bare_key(const std::string &k) {
    if (k.empty()) return false;
    for (char c : k)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
    return true;
}

} // namespace

Expectations read_expect(const toml::node &node, const std::string &path, std::string &ratio_at) {
    const std::string where = at(path, node.source().begin);
    ExpectAdvice advice;
    advice.suggest = suggestion;
    advice.refuse_metric = typo_of_metric;
    auto read = read_expectations(entry_of(path, "expect", where, node), advice);
    if (!read) throw ScenarioError(read.error());
    ratio_at = read->ratio_at;
    return std::move(read->expect);
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

#include "cmdbench/report/pair_scaling.hpp"

#include <algorithm>
#include <cmdbench/plugin.h>
#include <cstdio>
#include <map>

namespace cmdbench {
namespace {

// The row's message rate: its first operations-per-second metric that is
// not a connection rate.
const Metric *rate_metric(const Row &row) {
    for (const Metric &m : row.metrics)
        if (m.meaning.kind == CMDBENCH_KIND_RATE && m.unit == CMDBENCH_UNIT_PER_SEC &&
            !m.meaning.has(CMDBENCH_METRIC_PER_CONNECTION))
            return &m;
    return nullptr;
}

// The point of one count for aggregate row `agg`: the pairs' own rows are
// "pair K/NAME".
std::optional<ScalingPoint> point_of(const RunResult &run, const Row &agg, std::string &metric) {
    const Metric *sum = rate_metric(agg);
    if (!sum) return std::nullopt;
    ScalingPoint p;
    p.pairs = unsigned(run.pairs.size());
    p.aggregate = sum->value;
    bool first = true;
    for (const RailPart &part : run.pairs)
        for (const Row &row : run.rows)
            if (row.name == part.label + "/" + agg.name)
                if (const Metric *m = find_metric(row, sum->key)) {
                    p.min_pair = first ? m->value : std::min(p.min_pair, m->value);
                    p.max_pair = first ? m->value : std::max(p.max_pair, m->value);
                    first = false;
                }
    metric = sum->key;
    return p;
}

void add_run(PairScaling &s, const RunResult &run) {
    for (const Row &agg : run.rows) {
        if (agg.name.find('/') != std::string::npos) continue; // a pair's own row
        const auto point = point_of(run, agg, s.metric);
        if (!point) continue;
        auto it = std::find_if(s.rows.begin(), s.rows.end(),
                               [&](const ScalingRow &r) { return r.row == agg.name; });
        if (it == s.rows.end()) it = s.rows.insert(s.rows.end(), ScalingRow{agg.name, {}});
        it->points.push_back(*point);
    }
}

void add_ratios(PairScaling &s) {
    s.base_pairs = 0;
    for (const ScalingRow &row : s.rows)
        for (const ScalingPoint &p : row.points)
            if (s.base_pairs == 0 || p.pairs < s.base_pairs) s.base_pairs = p.pairs;
    for (ScalingRow &row : s.rows) {
        const auto base =
            std::find_if(row.points.begin(), row.points.end(),
                         [&](const ScalingPoint &p) { return p.pairs == s.base_pairs; });
        for (ScalingPoint &p : row.points)
            if (base != row.points.end() && base->aggregate > 0)
                p.ratio = p.aggregate / base->aggregate;
    }
}

std::string rate_text(double v) {
    char buf[32];
    if (v >= 1e6)
        std::snprintf(buf, sizeof buf, "%.3gM", v / 1e6);
    else if (v >= 1e4)
        std::snprintf(buf, sizeof buf, "%.3gk", v / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

} // namespace

std::vector<PairScaling> pair_scaling(const Report &report) {
    std::vector<PairScaling> out;
    std::map<std::pair<std::string, unsigned>, size_t> index;
    for_each_run(report, [&](const RunResult &run) {
        if (run.pairs_series.empty() || run.pairs.empty() || run.status != RunStatus::Ok) return;
        const auto key = std::make_pair(run.pairs_series, run.repeat);
        auto [it, added] = index.try_emplace(key, out.size());
        if (added) out.push_back(PairScaling{run.pairs_series, "", run.repeat, 1, {}});
        add_run(out[it->second], run);
    });
    for (PairScaling &s : out)
        add_ratios(s);
    out.erase(
        std::remove_if(out.begin(), out.end(), [](const PairScaling &s) { return s.rows.empty(); }),
        out.end());
    return out;
}

void write_scaling_table(std::ostream &out, const std::vector<PairScaling> &series) {
    for (const PairScaling &s : series) {
        out << "\n== message rate by pairs: " << s.series;
        if (s.repeat > 1) out << " (repeat " << s.repeat << ")";
        out << " (" << s.metric << ")\n";
        const std::string vs =
            "vs " + std::to_string(s.base_pairs) + (s.base_pairs == 1 ? " pair" : " pairs");
        char line[160];
        std::snprintf(line, sizeof line, "%-10s %5s %12s %12s %12s %10s\n", "row", "pairs",
                      "aggregate", "pair min", "pair max", vs.c_str());
        out << line;
        for (const ScalingRow &row : s.rows)
            for (const ScalingPoint &p : row.points) {
                char ratio[32] = "-";
                if (p.ratio) std::snprintf(ratio, sizeof ratio, "%.2fx", *p.ratio);
                std::snprintf(line, sizeof line, "%-10s %5u %12s %12s %12s %10s\n", row.row.c_str(),
                              p.pairs, rate_text(p.aggregate).c_str(),
                              rate_text(p.min_pair).c_str(), rate_text(p.max_pair).c_str(), ratio);
                out << line;
            }
    }
}

} // namespace cmdbench

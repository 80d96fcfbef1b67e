#include "cmdbench/report/matrix/matrix_view.hpp"

#include "cmdbench/report/link_rate.hpp"
#include "compare/comparison_samples.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace cmdbench {
namespace {

const CompareMetric *const kPreferred[] = {&CompareMetric::LatencyP50, &CompareMetric::Bandwidth,
                                           &CompareMetric::ConnRate};

// The metric and row of a run: the first preferred metric any pair has;
// latency and connection rate from the first row giving one (the smallest
// message, as tests list sizes upward), bandwidth from the last (the largest).
void choose_metric(MatrixView &v, const std::vector<const RunResult *> &runs) {
    for (const CompareMetric *preferred : kPreferred)
        for (const RunResult *r : runs) {
            const CompareMetric &m = *preferred;
            std::optional<std::string> item;
            for (const CompareSample &s : run_samples(*r))
                if (s.metric == m && s.value && !s.per_run) {
                    item = s.item;
                    if (m != CompareMetric::Bandwidth) break;
                }
            if (item) {
                v.metric = m;
                v.item = *item;
                return;
            }
        }
}

std::optional<double> value_of(const RunResult &r, const CompareMetric &m,
                               const std::string &item) {
    for (const CompareSample &s : run_samples(r))
        if (s.metric == m && s.item == item && !s.per_run) return s.value;
    return std::nullopt;
}

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The cells of `v` (its metric and item chosen), its median and slowest links.
void fill_view(MatrixView &v, const std::vector<const RunResult *> &runs) {
    v.cells.assign(size_t(v.ranks), std::vector<MatrixCell>(size_t(v.ranks)));
    const bool bandwidth = v.metric && *v.metric == CompareMetric::Bandwidth;
    std::map<std::pair<int, int>, std::vector<double>> values;
    std::set<std::pair<int, int>> failed;
    for (const RunResult *r : runs) {
        const RunPair &p = *r->pair;
        if (p.client < 0 || p.client >= v.ranks || p.server < 0 || p.server >= v.ranks) continue;
        MatrixCell &cell = v.cells[size_t(p.client)][size_t(p.server)];
        cell.scheduled = true;
        if (r->status != RunStatus::Ok) {
            if (cell.problem.empty())
                cell.problem =
                    std::string(to_string(r->status)) + (r->error.empty() ? "" : ": " + r->error);
            // A job reported without running (not_run(): a rank gone, an
            // interrupt) is Interrupted; any other status ran and failed.
            if (r->status == RunStatus::Interrupted)
                cell.not_run = true;
            else
                failed.insert({p.client, p.server});
            continue;
        }
        if (bandwidth && !cell.link_gbps)
            if (const auto rate = row_link_rate(*r, v.item))
                cell.link_gbps = rate->bits_per_second / 1e9;
        auto x = v.metric ? value_of(*r, *v.metric, v.item) : std::nullopt;
        if (x) values[{p.client, p.server}].push_back(*x);
    }
    for (const auto &pair : failed)
        v.cells[size_t(pair.first)][size_t(pair.second)].not_run = false;
    std::vector<double> all;
    for (const auto &[pair, xs] : values) {
        const double m = median_of(xs);
        MatrixCell &cell = v.cells[size_t(pair.first)][size_t(pair.second)];
        cell.value = m;
        cell.not_run = false;
        all.push_back(m);
    }
    for (const auto &row : v.cells)
        for (const auto &c : row)
            v.pairs += c.scheduled;
    v.filled = all.size();
    if (all.empty()) return;
    v.median = median_of(all);
    const bool higher_better = higher_is_better(*v.metric);
    for (int i = 0; i < v.ranks; ++i)
        for (int j = 0; j < v.ranks; ++j)
            if (auto x = v.cells[size_t(i)][size_t(j)].value)
                v.slowest.push_back({i, j, *x, *v.median > 0 ? *x / *v.median : 0});
    // Worst first; ties in rank order, so the list is stable between runs.
    std::stable_sort(v.slowest.begin(), v.slowest.end(), [&](const SlowLink &a, const SlowLink &b) {
        return higher_better ? a.value < b.value : a.value > b.value;
    });
    if (v.slowest.size() > kSlowLinks) v.slowest.resize(kSlowLinks);
}

// The rails of an all-rails run, in its order: its runs' rail labels.
std::vector<std::string> rail_labels(const std::vector<const RunResult *> &runs) {
    for (const RunResult *r : runs)
        if (!r->rails.empty()) {
            std::vector<std::string> out;
            for (const RailPart &rail : r->rails)
                out.push_back(rail.label);
            return out;
        }
    return {};
}

// A view per run; an all-rails run whose metric comes from a rail's rows
// (latency has no total across rails) gets a view per rail.
std::vector<MatrixView> build_views(const std::string &name,
                                    const std::vector<const RunResult *> &runs, int ranks) {
    MatrixView v;
    v.run = name;
    v.test = runs.front()->test;
    v.transport = runs.front()->transport;
    v.ranks = ranks;
    choose_metric(v, runs);
    const std::vector<std::string> rails = rail_labels(runs);
    const size_t slash = v.item.find('/');
    if (slash != std::string::npos &&
        std::find(rails.begin(), rails.end(), v.item.substr(0, slash)) != rails.end()) {
        std::vector<MatrixView> out;
        for (const std::string &label : rails) {
            MatrixView r = v;
            r.rail = label;
            r.item = label + v.item.substr(slash);
            fill_view(r, runs);
            out.push_back(std::move(r));
        }
        return out;
    }
    fill_view(v, runs);
    return {v};
}

// "bw" of "bw @rxe1"; "" for a name without a rail, or the all-rails run.
std::string rail_base(const std::string &name) {
    const size_t at = name.rfind(" @");
    if (at == std::string::npos || name.compare(at, std::string::npos, " @all rails") == 0)
        return "";
    return name.substr(0, at);
}

// Sets each rail's view's best_rail_median: among the views of one run on
// its several rails (one all-rails run's, or "NAME @LABEL" runs), of the same
// metric and item, the best median.
void set_best_rails(std::vector<MatrixView> &views) {
    std::map<std::string, std::vector<MatrixView *>> siblings;
    for (MatrixView &v : views) {
        if (!v.metric || !v.median) continue;
        std::string key;
        if (!v.rail.empty())
            key = "all\n" + v.run + "\n" + v.item.substr(v.rail.size());
        else if (const std::string base = rail_base(v.run); !base.empty())
            key = "one\n" + base + "\n" + v.item;
        if (!key.empty()) siblings[key + "\n" + v.metric->id].push_back(&v);
    }
    for (auto &[key, set] : siblings) {
        if (set.size() < 2) continue;
        const bool higher = higher_is_better(*set.front()->metric);
        const MatrixView *best = set.front();
        for (const MatrixView *v : set)
            if (higher ? *v->median > *best->median : *v->median < *best->median) best = v;
        const std::string label =
            best->rail.empty() ? best->run.substr(best->run.rfind(" @") + 2) : best->rail;
        for (MatrixView *v : set) {
            v->best_rail_median = best->median;
            v->best_rail = label;
        }
    }
}

} // namespace

std::vector<MatrixView> matrix_views(const Report &report) {
    const int ranks = report.matrix ? int(report.matrix->ranks.size()) : 0;
    std::vector<std::string> order;
    std::map<std::string, std::vector<const RunResult *>> by_name;
    for (const RunResult &r : report.runs) {
        if (!r.pair) continue;
        auto &list = by_name[r.name];
        if (list.empty()) order.push_back(r.name);
        list.push_back(&r);
    }
    std::vector<MatrixView> out;
    for (const std::string &name : order)
        for (MatrixView &v : build_views(name, by_name[name], ranks))
            out.push_back(std::move(v));
    set_best_rails(out);
    return out;
}

std::string view_title(const MatrixView &v) {
    return v.rail.empty() ? v.run : v.run + ", rail " + v.rail;
}

std::string metric_caption(const MatrixView &v) {
    if (!v.metric) return "no value (no row gave a latency, bandwidth or connection rate)";
    return std::string(to_string(*v.metric)) + " (" + unit_of(*v.metric) + ") of row " + v.item;
}

} // namespace cmdbench

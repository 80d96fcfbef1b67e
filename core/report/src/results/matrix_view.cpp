#include "cmdbench/report/matrix/matrix_view.hpp"

#include "compare/comparison_samples.hpp"

#include <algorithm>
#include <map>

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

MatrixView build_view(const std::string &name, const std::vector<const RunResult *> &runs,
                      int ranks) {
    MatrixView v;
    v.run = name;
    v.test = runs.front()->test;
    v.transport = runs.front()->transport;
    v.ranks = ranks;
    v.cells.assign(size_t(ranks), std::vector<MatrixCell>(size_t(ranks)));
    choose_metric(v, runs);
    std::map<std::pair<int, int>, std::vector<double>> values;
    for (const RunResult *r : runs) {
        const RunPair &p = *r->pair;
        if (p.client < 0 || p.client >= ranks || p.server < 0 || p.server >= ranks) continue;
        MatrixCell &cell = v.cells[size_t(p.client)][size_t(p.server)];
        cell.scheduled = true;
        if (r->status != RunStatus::Ok) {
            if (cell.problem.empty())
                cell.problem =
                    std::string(to_string(r->status)) + (r->error.empty() ? "" : ": " + r->error);
            continue;
        }
        auto x = v.metric ? value_of(*r, *v.metric, v.item) : std::nullopt;
        if (x) values[{p.client, p.server}].push_back(*x);
    }
    std::vector<double> all;
    for (const auto &[pair, xs] : values) {
        const double m = median_of(xs);
        v.cells[size_t(pair.first)][size_t(pair.second)].value = m;
        all.push_back(m);
    }
    for (const auto &row : v.cells)
        for (const auto &c : row)
            v.pairs += c.scheduled;
    v.filled = all.size();
    if (all.empty()) return v;
    v.median = median_of(all);
    const bool higher_better = higher_is_better(*v.metric);
    for (int i = 0; i < ranks; ++i)
        for (int j = 0; j < ranks; ++j)
            if (auto x = v.cells[size_t(i)][size_t(j)].value)
                v.slowest.push_back({i, j, *x, *v.median > 0 ? *x / *v.median : 0});
    // Worst first; ties in rank order, so the list is stable between runs.
    std::stable_sort(v.slowest.begin(), v.slowest.end(), [&](const SlowLink &a, const SlowLink &b) {
        return higher_better ? a.value < b.value : a.value > b.value;
    });
    if (v.slowest.size() > kSlowLinks) v.slowest.resize(kSlowLinks);
    return v;
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
        out.push_back(build_view(name, by_name[name], ranks));
    return out;
}

std::string metric_caption(const MatrixView &v) {
    if (!v.metric) return "no value (no row gave a latency, bandwidth or connection rate)";
    return std::string(to_string(*v.metric)) + " (" + unit_of(*v.metric) + ") of row " + v.item;
}

} // namespace cmdbench

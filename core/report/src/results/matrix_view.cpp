#include "cmdbench/report/matrix/matrix_view.hpp"

#include "cmdbench/report/link_rate.hpp"
#include "cmdbench/report/run_counters.hpp"
#include "compare/comparison_samples.hpp"
#include "format/run_table.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

namespace cmdbench {
namespace {

const CompareMetric *const kPreferred[] = {&CompareMetric::LatencyP50, &CompareMetric::Bandwidth,
                                           &CompareMetric::ConnRate};

// What a first pass over a run name's pairs finds: the item each preferred
// metric first has, and the rails of an all-rails run.
struct ViewDraft {
    std::string name, test, transport;
    std::optional<std::string> items[std::size(kPreferred)];
    std::vector<std::string> rails;
};

// A run's part of its draft. The metric is the first preferred metric any
// pair has; latency and connection rate come from the first row giving one
// (the smallest message, as tests list sizes upward), bandwidth from the
// last (the largest); the row is that of the first pair giving the metric.
void add_to_draft(ViewDraft &d, const RunResult &r) {
    if (d.rails.empty())
        for (const RailPart &rail : r.rails)
            d.rails.push_back(rail.label);
    for (size_t k = 0; k < std::size(kPreferred); ++k) {
        if (d.items[k]) continue;
        const CompareMetric &m = *kPreferred[k];
        for (const CompareSample &s : run_samples(r))
            if (s.metric == m && s.value && !s.per_run) {
                d.items[k] = s.item;
                if (m != CompareMetric::Bandwidth) break;
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

// The cells of a view (its metric and item chosen), fed one pair at a
// time; then its median and slowest links.
class CellFiller {
  public:
    CellFiller(MatrixView &v, size_t listed)
        : v_(v), listed_(listed), bandwidth_(v.metric && *v.metric == CompareMetric::Bandwidth) {
        v.cells.assign(size_t(v.ranks), std::vector<MatrixCell>(size_t(v.ranks)));
    }

    void add(const RunResult &r) {
        const RunPair &p = *r.pair;
        if (p.client < 0 || p.client >= v_.ranks || p.server < 0 || p.server >= v_.ranks) return;
        if (v_.first_of_run) add_notes(r);
        MatrixCell &cell = v_.cells[size_t(p.client)][size_t(p.server)];
        cell.scheduled = true;
        if (r.status != RunStatus::Ok) {
            if (cell.problem.empty())
                cell.problem =
                    std::string(to_string(r.status)) + (r.error.empty() ? "" : ": " + r.error);
            // A job reported without running (not_run(): a rank gone, an
            // interrupt) is Interrupted; any other status ran and failed.
            if (r.status == RunStatus::Interrupted)
                cell.not_run = true;
            else
                failed_.insert({p.client, p.server});
            return;
        }
        if (bandwidth_ && !cell.link_gbps)
            if (const auto rate = row_link_rate(r, v_.item))
                cell.link_gbps = rate->bits_per_second / 1e9;
        auto x = v_.metric ? value_of(r, *v_.metric, v_.item) : std::nullopt;
        if (x) values_[{p.client, p.server}].push_back(*x);
    }

    void finish() {
        MatrixView &v = v_;
        for (const auto &pair : failed_)
            v.cells[size_t(pair.first)][size_t(pair.second)].not_run = false;
        std::vector<double> all;
        for (const auto &[pair, xs] : values_) {
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
        std::stable_sort(v.slowest.begin(), v.slowest.end(),
                         [&](const SlowLink &a, const SlowLink &b) {
                             return higher_better ? a.value < b.value : a.value > b.value;
                         });
        if (v.slowest.size() > listed_) v.slowest.resize(listed_);
    }

  private:
    // What the pair's run would show under its title, as a single run's
    // table has it (background_lines, counter_lines).
    void add_notes(const RunResult &r) {
        std::vector<std::string> lines = background_lines(r);
        for (std::string &line : counter_lines(r.counters))
            lines.push_back(std::move(line));
        const bool keep_all = v_.ranks <= kPairNotesKeptRanks;
        for (std::string &line : lines) {
            if (keep_all || v_.notes.size() < kPairNotesListed)
                v_.notes.push_back(
                    {r.pair->client, r.pair->server, r.repeat, r.repeats > 1, std::move(line)});
            ++v_.notes_total;
        }
    }

    MatrixView &v_;
    const size_t listed_; // slowest links kept
    const bool bandwidth_;
    std::map<std::pair<int, int>, std::vector<double>> values_;
    std::set<std::pair<int, int>> failed_;
};

// The views of a draft, their cells not yet filled: one; an all-rails run
// whose metric comes from a rail's rows (latency has no total across
// rails) gets a view per rail.
std::vector<MatrixView> draft_views(const ViewDraft &d, int ranks) {
    MatrixView v;
    v.run = d.name;
    v.test = d.test;
    v.transport = d.transport;
    v.ranks = ranks;
    for (size_t k = 0; k < std::size(kPreferred); ++k)
        if (d.items[k]) {
            v.metric = *kPreferred[k];
            v.item = *d.items[k];
            break;
        }
    const size_t slash = v.item.find('/');
    if (slash == std::string::npos ||
        std::find(d.rails.begin(), d.rails.end(), v.item.substr(0, slash)) == d.rails.end())
        return {v};
    std::vector<MatrixView> out;
    for (const std::string &label : d.rails) {
        MatrixView r = v;
        r.rail = label;
        r.item = label + v.item.substr(slash);
        r.first_of_run = out.empty();
        out.push_back(std::move(r));
    }
    return out;
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

// Two passes over the pairs, neither holding them: the first chooses each
// run's metric, the second fills the cells.
std::vector<MatrixView> matrix_views(const Report &report) {
    const int ranks = report.matrix ? int(report.matrix->ranks.size()) : 0;
    const size_t listed =
        report.matrix ? report.matrix->worst_links : MatrixInfo::kDefaultWorstLinks;
    std::vector<ViewDraft> drafts;
    std::map<std::string, size_t> draft_of;
    for_each_run(report, [&](const RunResult &r) {
        if (!r.pair) return;
        auto [at, added] = draft_of.emplace(r.name, drafts.size());
        if (added) drafts.push_back({r.name, r.test, r.transport, {}, {}});
        add_to_draft(drafts[at->second], r);
    });
    std::vector<MatrixView> out;
    std::map<std::string, std::vector<size_t>> views_of; // run name -> its views in `out`
    for (const ViewDraft &d : drafts)
        for (MatrixView &v : draft_views(d, ranks)) {
            views_of[d.name].push_back(out.size());
            out.push_back(std::move(v));
        }
    std::vector<CellFiller> fillers;
    fillers.reserve(out.size());
    for (MatrixView &v : out)
        fillers.emplace_back(v, listed);
    for_each_run(report, [&](const RunResult &r) {
        if (!r.pair) return;
        for (size_t i : views_of[r.name])
            fillers[i].add(r);
    });
    for (CellFiller &f : fillers)
        f.finish();
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

std::string pair_note_text(const PairNote &n, const std::string &arrow) {
    return std::to_string(n.client) + " " + arrow + " " + std::to_string(n.server) +
           (n.repeated ? ", repeat " + std::to_string(n.repeat) : "") + ": " + n.line;
}

std::vector<std::string> pair_note_lines(const MatrixView &v, const std::string &arrow) {
    const size_t listed = std::min(v.notes.size(), kPairNotesListed);
    std::vector<std::string> lines;
    for (size_t k = 0; k < listed; ++k)
        lines.push_back(pair_note_text(v.notes[k], arrow));
    if (v.notes_total > listed)
        lines.push_back("... and " + std::to_string(v.notes_total - listed) +
                        " more of these lines: every pair's background and counters are in the "
                        "JSON");
    return lines;
}

} // namespace cmdbench

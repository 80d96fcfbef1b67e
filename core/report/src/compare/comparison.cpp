// build_comparison: columns and their labels, the baseline, and the repeat
// spread and verdict behind every cell (docs/compare.md).
#include "cmdbench/report/compare/comparison.hpp"

#include "compare/comparison_groups.hpp"
#include "compare/comparison_lineup.hpp"
#include "compare/comparison_samples.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace cmdbench {
namespace {

struct Columns {
    std::vector<std::string> labels;
    std::vector<std::string> variants;                      // the variant each column shows
    std::vector<size_t> input;                              // the report each column comes from
    std::map<std::pair<size_t, std::string>, size_t> index; // (input, variant) -> column
};

// A variant carried by one input keeps its name. Carried by several, it
// becomes variant@host when those inputs' hosts are all known and distinct,
// else variant#k, k counting the inputs that carry it in order.
std::string label_for(const std::string &variant, size_t input, const std::vector<size_t> &carriers,
                      const std::vector<const Report *> &reports) {
    if (carriers.size() == 1) return variant;
    std::set<std::string> hosts;
    bool distinct = true;
    for (size_t f : carriers) {
        const std::string &host = reports[f]->context.hostname;
        distinct = distinct && !host.empty() && hosts.insert(host).second;
    }
    if (distinct) return variant + "@" + reports[input]->context.hostname;
    const auto k = std::find(carriers.begin(), carriers.end(), input) - carriers.begin() + 1;
    return variant + "#" + std::to_string(k);
}

Columns make_columns(const std::vector<const Report *> &reports) {
    Columns c;
    std::map<std::string, std::vector<size_t>> carriers;
    for (size_t f = 0; f < reports.size(); ++f)
        for (const auto &run : reports[f]->runs) {
            const std::string v = run_variant(run);
            if (!c.index.emplace(std::make_pair(f, v), c.variants.size()).second) continue;
            c.variants.push_back(v);
            c.input.push_back(f);
            carriers[v].push_back(f);
        }
    for (size_t i = 0; i < c.variants.size(); ++i)
        c.labels.push_back(label_for(c.variants[i], c.input[i], carriers[c.variants[i]], reports));
    return c;
}

// An exact label, else the first column showing that variant (so "tcp" still
// names a baseline when the labels are tcp#1 and tcp#2).
std::optional<size_t> find_column(const Columns &c, const std::string &name) {
    for (size_t i = 0; i < c.labels.size(); ++i)
        if (c.labels[i] == name) return i;
    for (size_t i = 0; i < c.variants.size(); ++i)
        if (c.variants[i] == name) return i;
    return std::nullopt;
}

size_t pick_baseline(const Columns &c, const std::vector<const Report *> &reports,
                     const CompareOptions &options) {
    if (!options.baseline.empty()) {
        if (auto i = find_column(c, options.baseline)) return *i;
        throw CompareError("unknown baseline '" + options.baseline + "': the columns are " +
                           (c.labels.empty() ? "none" : join_list(c.labels)));
    }
    if (!reports.empty())
        if (auto i = find_column(c, reports[0]->baseline)) return *i;
    return 0;
}

Spread spread_of(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    Spread s;
    s.n = unsigned(values.size());
    s.min = values.front();
    s.max = values.back();
    const size_t mid = values.size() / 2;
    s.median = values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
    return s;
}

void set_verdict(CompareCell &cell, const CompareCell &base, bool is_baseline) {
    if (cell.value && base.value && base.value->median != 0)
        cell.ratio = cell.value->median / base.value->median;
    if (is_baseline) {
        cell.verdict = Verdict::Baseline;
    } else if (!cell.ratio) {
        cell.verdict = Verdict::Missing;
    } else if (cell.value->n >= 2 && base.value->n >= 2 && cell.value->min <= base.value->max &&
               base.value->min <= cell.value->max) {
        cell.verdict = Verdict::NoClearDifference;
    } else {
        cell.verdict = Verdict::Ratio;
    }
}

// One note per failure, not per repeat: repeats that failed alike share it.
class RunNotes {
  public:
    void add(const std::string &label, const CompareSource &s) {
        std::string what = std::string(to_string(s.run->status));
        if (!s.run->error.empty()) what += ": " + s.run->error;
        const std::string key = label + " " + s.group + "\n" + what;
        // An index by key: a file may hold 100,000 failed runs.
        const auto [at, added] = index_.emplace(key, notes_.size());
        if (added) notes_.push_back(Note{key, label + " " + s.group, what, {}, 1});
        Note &note = notes_[at->second];
        note.repeats.push_back(s.run->repeat);
        note.of = std::max(note.of, s.run->repeats);
    }
    std::vector<std::string> text() const {
        std::vector<std::string> out;
        for (const auto &n : notes_) {
            std::string which;
            if (n.of > 1 && n.repeats.size() == n.of)
                which = " (all " + std::to_string(n.of) + " repeats)";
            else if (n.of > 1) {
                std::vector<std::string> nums;
                for (unsigned r : n.repeats)
                    nums.push_back(std::to_string(r));
                which = " (repeat " + join_list(nums) + " of " + std::to_string(n.of) + ")";
            }
            out.push_back(n.subject + which + ": " + n.what);
        }
        return out;
    }

  private:
    struct Note {
        std::string key, subject, what;
        std::vector<unsigned> repeats;
        unsigned of = 1;
    };
    std::vector<Note> notes_;
    std::map<std::string, size_t> index_; // key -> notes_ index
};

// What went wrong with a loaded run's background, under the table: its
// figures were measured with less load than asked for.
void add_background_notes(const std::string &column, const CompareSource &s,
                          std::vector<std::string> &notes) {
    if (!s.run->background) return;
    const std::string which =
        s.run->repeats > 1 ? " (repeat " + std::to_string(s.run->repeat) + ")" : "";
    for (const std::string &note : s.run->background->notes)
        notes.push_back(column + " " + s.group + which + ": " + note);
}

// The values of every (group, item, metric), per column, in first-seen order.
class Table {
  public:
    explicit Table(size_t columns) : columns_(columns) {}

    void add(const std::string &group, const CompareSample &s, size_t column) {
        // First-seen order in items_, membership in seen_: a search of the
        // list would be quadratic in a group's items.
        if (s.item != kWholeRunItem && seen_.insert({group, s.item}).second)
            items_[group].push_back(s.item);
        auto key = std::make_tuple(group, s.item, s.metric.id);
        auto it = values_.find(key);
        if (it == values_.end()) {
            it = values_.emplace(key, std::vector<std::vector<double>>(columns_)).first;
            sizes_[{group, s.item}] = s.size;
            metrics_[{group, s.item}].push_back(s.metric);
        }
        if (s.value) it->second[column].push_back(*s.value);
    }

    std::vector<CompareRow> rows(const std::vector<std::string> &groups, size_t baseline) const {
        std::vector<CompareRow> out;
        for (const auto &g : groups) {
            auto items = items_.count(g) ? items_.at(g) : std::vector<std::string>{};
            items.push_back(kWholeRunItem); // per-run rows close the group
            for (const auto &item : items) {
                auto found = metrics_.find({g, item});
                if (found == metrics_.end()) continue;
                // Built-in families in their fixed order, then declared ones
                // in the order the rows gave them.
                std::vector<CompareMetric> metrics = found->second;
                std::stable_sort(
                    metrics.begin(), metrics.end(),
                    [](const CompareMetric &a, const CompareMetric &b) { return a.rank < b.rank; });
                for (const auto &m : metrics)
                    if (auto row = make_row(g, item, m, baseline)) out.push_back(std::move(*row));
            }
        }
        return out;
    }

  private:
    std::optional<CompareRow> make_row(const std::string &g, const std::string &item,
                                       const CompareMetric &m, size_t baseline) const {
        const auto &values = values_.at(std::make_tuple(g, item, m.id));
        CompareRow row{g, item, sizes_.at({g, item}), m, std::vector<CompareCell>(columns_)};
        bool any = false;
        for (size_t c = 0; c < columns_; ++c)
            if (!values[c].empty()) {
                row.cells[c].value = spread_of(values[c]);
                any = true;
            }
        if (!any) return std::nullopt; // e.g. a step no variant timed
        const CompareCell base = row.cells[baseline];
        for (size_t c = 0; c < columns_; ++c)
            set_verdict(row.cells[c], base, c == baseline);
        return row;
    }

    size_t columns_;
    std::map<std::string, std::vector<std::string>> items_;
    std::set<std::pair<std::string, std::string>> seen_; // (group, item) in items_
    std::map<std::tuple<std::string, std::string, std::string>, std::vector<std::vector<double>>>
        values_;
    std::map<std::pair<std::string, std::string>, double> sizes_;
    std::map<std::pair<std::string, std::string>, std::vector<CompareMetric>> metrics_;
};

} // namespace

const char *to_string(Verdict v) {
    switch (v) {
    case Verdict::Baseline:
        return "baseline";
    case Verdict::Ratio:
        return "ratio";
    case Verdict::NoClearDifference:
        return "no_clear_difference";
    case Verdict::Missing:
        return "missing";
    }
    return "unknown";
}

Comparison build_comparison(const std::vector<const Report *> &reports,
                            const CompareOptions &options) {
    const Columns columns = make_columns(reports);
    Comparison c;
    c.columns = columns.labels;
    c.baseline = pick_baseline(columns, reports, options);

    std::vector<CompareSource> sources;
    std::vector<std::string> groups; // first-seen order
    std::set<std::string> seen_groups;
    std::vector<std::string> split_notes;
    const auto group_of = comparison_groups(reports, split_notes);
    for (size_t f = 0; f < reports.size(); ++f)
        for (size_t i = 0; i < reports[f]->runs.size(); ++i) {
            const RunResult &run = reports[f]->runs[i];
            CompareSource s{f, columns.index.at({f, run_variant(run)}), group_of[f][i], &run,
                            run_samples(run)};
            if (seen_groups.insert(s.group).second) groups.push_back(s.group);
            sources.push_back(std::move(s));
        }

    const CompareScope scope =
        line_up(sources, columns.labels, reports.size(), groups, options.common_only, c.notes);
    Table table(c.columns.size());
    RunNotes run_notes;
    for (const auto &s : sources) {
        if (scope.dropped_groups.count(s.group)) continue;
        if (s.run->status != RunStatus::Ok) run_notes.add(c.columns[s.column], s);
        add_background_notes(c.columns[s.column], s, split_notes);
        for (const auto &sample : s.samples)
            if (scope.keeps(s.group, sample)) table.add(s.group, sample, s.column);
    }
    groups.erase(
        std::remove_if(groups.begin(), groups.end(),
                       [&](const std::string &g) { return scope.dropped_groups.count(g); }),
        groups.end());
    if (!c.columns.empty()) c.rows = table.rows(groups, c.baseline);
    std::set<std::string> drivers;
    for (const auto *report : reports)
        for (const auto &run : report->runs)
            for (const auto &d : run.path.software_drivers())
                drivers.insert(d);
    if (!drivers.empty()) c.software_rdma = software_rdma_notice(drivers);
    const auto failures = run_notes.text();
    c.notes.insert(c.notes.begin(), failures.begin(), failures.end());
    c.notes.insert(c.notes.end(), split_notes.begin(), split_notes.end());
    c.spread_limit = options.spread_limit ? *options.spread_limit
                     : reports.empty()    ? kDefaultSpreadLimit
                                          : reports[0]->spread_limit;
    return c;
}

} // namespace cmdbench

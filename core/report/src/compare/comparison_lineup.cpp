// The line-up check between comparison inputs (docs/compare.md, "Inputs that
// do not line up").
#include "compare/comparison_lineup.hpp"

#include <algorithm>
#include <iterator>
#include <sstream>

namespace cmdbench {
namespace {

std::string size_list(const std::set<double> &sizes) {
    std::vector<std::string> parts;
    for (double s : sizes) {
        std::ostringstream o;
        o << std::fixed;
        o.precision(0);
        o << s;
        parts.push_back(o.str());
    }
    return parts.empty() ? "none" : join_list(parts);
}

class LineUp {
  public:
    // Indexed in one pass: scanning every source per group and input would be
    // quadratic in the runs of a file.
    LineUp(const std::vector<CompareSource> &sources, const std::vector<std::string> &labels,
           size_t inputs)
        : inputs_(inputs) {
        for (const auto &s : sources) {
            const std::string &label = labels[s.column];
            first_with_.emplace(s.group, s.input);
            add_label(group_labels_[{s.input, s.group}], label);
            add_label(input_labels_[s.input], label);
            for (const auto &sample : s.samples)
                if (!sample.per_run) sizes_[{s.input, s.group}].insert(sample.size);
        }
    }

    // Only between inputs: within one, a group or size one variant lacks is
    // simply a missing cell.
    CompareScope check(const std::vector<std::string> &groups, bool common_only,
                       std::vector<std::string> &notes) const {
        CompareScope scope;
        if (inputs_ < 2) return scope;
        for (const auto &g : groups) {
            std::vector<size_t> without;
            for (size_t f = 0; f < inputs_; ++f)
                if (!has_group(f, g)) without.push_back(f);
            if (!without.empty()) {
                const size_t with = first_with(g);
                std::string what = "group '" + g + "' is in " + input_name(with, g) +
                                   " but not in " + input_name(without[0], g);
                if (!common_only) throw CompareError(what);
                scope.dropped_groups.insert(g);
                notes.push_back("left out: " + what);
                continue;
            }
            check_sizes(g, common_only, scope, notes);
        }
        return scope;
    }

  private:
    // Labels in first-seen order, each once.
    struct Labels {
        std::vector<std::string> list;
        std::set<std::string> seen;
    };
    static void add_label(Labels &l, const std::string &label) {
        if (l.seen.insert(label).second) l.list.push_back(label);
    }

    bool has_group(size_t f, const std::string &g) const { return group_labels_.count({f, g}); }
    size_t first_with(const std::string &g) const {
        const auto it = first_with_.find(g);
        return it == first_with_.end() ? 0 : it->second;
    }
    // "input 2 (tcp#2)": the input's columns in this group (all of them when
    // it lacks the group).
    std::string input_name(size_t f, const std::string &g) const {
        const auto it = group_labels_.find({f, g});
        const Labels *l = it != group_labels_.end() ? &it->second : nullptr;
        if (!l) {
            const auto all = input_labels_.find(f);
            if (all != input_labels_.end()) l = &all->second;
        }
        return "input " + std::to_string(f + 1) + " (" + (l ? join_list(l->list) : "") + ")";
    }
    // Sizes of the input's ok runs in the group; nullopt when none is ok
    // (a skipped variant is a missing cell, not a mismatch).
    std::optional<std::set<double>> sizes_of(size_t f, const std::string &g) const {
        const auto it = sizes_.find({f, g});
        if (it == sizes_.end()) return std::nullopt;
        return it->second;
    }
    void check_sizes(const std::string &g, bool common_only, CompareScope &scope,
                     std::vector<std::string> &notes) const {
        std::vector<std::pair<size_t, std::set<double>>> seen;
        for (size_t f = 0; f < inputs_; ++f)
            if (auto sizes = sizes_of(f, g)) seen.emplace_back(f, std::move(*sizes));
        if (seen.size() < 2) return;
        std::set<double> common = seen[0].second, all;
        for (const auto &[f, sizes] : seen) {
            std::set<double> both;
            std::set_intersection(common.begin(), common.end(), sizes.begin(), sizes.end(),
                                  std::inserter(both, both.end()));
            common = std::move(both);
            all.insert(sizes.begin(), sizes.end());
        }
        if (common.size() == all.size()) return;
        std::set<double> differing;
        std::set_difference(all.begin(), all.end(), common.begin(), common.end(),
                            std::inserter(differing, differing.end()));
        if (!common_only) {
            std::vector<std::string> has;
            for (const auto &[f, sizes] : seen)
                has.push_back(input_name(f, g) + " has " + size_list(sizes));
            throw CompareError("group '" + g + "': the sizes differ: " + join_list(has, "; ") +
                               " (not in every input: " + size_list(differing) + ")");
        }
        scope.sizes[g] = common;
        notes.push_back("left out of group '" + g +
                        "': " + (differing.size() > 1 ? "sizes " : "size ") + size_list(differing) +
                        " (not in every input), and the whole-run figures, which include them");
    }

    size_t inputs_;
    std::map<std::string, size_t> first_with_;                         // group -> first input
    std::map<std::pair<size_t, std::string>, Labels> group_labels_;    // (input, group)
    std::map<size_t, Labels> input_labels_;                            // input -> all its columns
    std::map<std::pair<size_t, std::string>, std::set<double>> sizes_; // (input, group)
};

} // namespace

std::string join_list(const std::vector<std::string> &parts, const char *sep) {
    std::string out;
    for (const auto &p : parts)
        out += (out.empty() ? "" : sep) + p;
    return out;
}

bool CompareScope::keeps(const std::string &group, const CompareSample &s) const {
    if (dropped_groups.count(group)) return false;
    auto kept = sizes.find(group);
    if (kept == sizes.end()) return true;
    // A whole-run figure (CPU per GB) counts the sizes left out too.
    return !s.per_run && kept->second.count(s.size) > 0;
}

CompareScope line_up(const std::vector<CompareSource> &sources,
                     const std::vector<std::string> &labels, size_t inputs,
                     const std::vector<std::string> &groups, bool common_only,
                     std::vector<std::string> &notes) {
    return LineUp(sources, labels, inputs).check(groups, common_only, notes);
}

} // namespace cmdbench

#include "compare/comparison_groups.hpp"

#include "compare/comparison_samples.hpp"

#include <map>
#include <set>
#include <tuple>

namespace cmdbench {

std::vector<std::vector<std::string>> comparison_groups(const std::vector<const Report *> &reports,
                                                        std::vector<std::string> &notes) {
    std::vector<std::vector<std::string>> out(reports.size());
    for (size_t f = 0; f < reports.size(); ++f) {
        // (group, variant) -> its run names, in first-seen order; a set
        // beside it, so 100,000 runs do not search a list each.
        std::map<std::pair<std::string, std::string>, std::vector<std::string>> names;
        std::set<std::tuple<std::string, std::string, std::string>> seen;
        for (const RunResult &run : reports[f]->runs) {
            const std::string g = run_group(run), v = run_variant(run);
            if (seen.insert({g, v, run.name}).second) names[{g, v}].push_back(run.name);
        }
        for (const RunResult &run : reports[f]->runs) {
            const std::string g = run_group(run);
            const bool split = names[{g, run_variant(run)}].size() > 1;
            out[f].push_back(split ? g + " (" + run.name + ")" : g);
        }
        for (const auto &[key, list] : names) {
            if (list.size() < 2) continue;
            std::string which;
            for (size_t i = 0; i < list.size(); ++i)
                which += std::string(i == 0                 ? ""
                                     : i + 1 == list.size() ? " and "
                                                            : ", ") +
                         "'" + list[i] + "'";
            notes.push_back("runs " + which + " are all variant " + key.second + " of group " +
                            key.first +
                            (reports.size() > 1 ? " in input " + std::to_string(f + 1) : "") +
                            ": each is a group of its own, not a repeat of the others (give "
                            "them a `group` to compare each with other variants)");
        }
    }
    return out;
}

} // namespace cmdbench

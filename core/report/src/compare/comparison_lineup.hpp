// The line-up check between the inputs of a comparison: whether files
// measured the same groups and sizes (docs/compare.md, "Inputs that do not
// line up"). Internal to comparison.cpp.
#pragma once
#include "compare/comparison_samples.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace cmdbench {

// What one run gives, and where it goes.
struct CompareSource {
    size_t input = 0;  // index of its report
    size_t column = 0; // index of its column
    std::string group;
    const RunResult *run = nullptr;
    std::vector<CompareSample> samples;
};

// Which groups and sizes the comparison keeps.
struct CompareScope {
    std::set<std::string> dropped_groups;
    // group -> the sizes kept, when some were left out (then its whole-run
    // rows are too); a group not here keeps all.
    std::map<std::string, std::set<double>> sizes;
    bool keeps(const std::string &group, const CompareSample &s) const;
};

// Between two or more inputs: a group some input lacks, or a group whose
// sizes differ between inputs, throws CompareError naming them; with
// common_only, it is left out instead and `notes` say what. Within a single
// input nothing is refused. `labels` are the column labels.
CompareScope line_up(const std::vector<CompareSource> &sources,
                     const std::vector<std::string> &labels, size_t inputs,
                     const std::vector<std::string> &groups, bool common_only,
                     std::vector<std::string> &notes);

std::string join_list(const std::vector<std::string> &parts, const char *sep = ", ");

} // namespace cmdbench

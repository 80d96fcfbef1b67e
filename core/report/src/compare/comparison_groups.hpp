// The group each run of a comparison is in. Runs of one input, group and
// variant under different names (`tcp-bw` and `tcp-bw-abs`: the same test
// and transport, other parameters) are not repeats of one run: each such run
// gets a group of its own, "GROUP (NAME)", instead of feeding one spread
// whose median is of neither (docs/compare.md). Internal to comparison.cpp.
#pragma once
#include "cmdbench/report/result.hpp"

#include <string>
#include <vector>

namespace cmdbench {

// Per input, per run (in order), the run's comparison group; a note per
// group and variant split so in `notes`.
std::vector<std::vector<std::string>> comparison_groups(const std::vector<const Report *> &reports,
                                                        std::vector<std::string> &notes);

} // namespace cmdbench

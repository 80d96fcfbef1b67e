// The comparison table's cells as text: comparison_table.cpp prints them
// aligned; another tabular format renders the same cells, so every format
// says the same. Text from results files is already made printable.
#pragma once
#include "cmdbench/report/compare/comparison.hpp"

#include <string>
#include <vector>

namespace cmdbench {

// One group's block: its header line first, then a line per (item, metric).
struct ComparisonGrid {
    std::string group;
    std::vector<std::vector<std::string>> lines;
};

// "comparison (baseline X): medians, ratio = variant / baseline".
std::string comparison_caption(const Comparison &c);
std::vector<ComparisonGrid> comparison_grids(const Comparison &c);
// How many values spread too wide to compare, and what to do; "" if none.
std::string wide_spread_note(const Comparison &c);

} // namespace cmdbench

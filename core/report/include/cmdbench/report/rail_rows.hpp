// The rows of a run on every rail at once: each rail's own rows, named
// "LABEL/ROW", then rows under the rails' own row names that add up what
// adds up across rails (bandwidth, rates, bytes and counts moved), for each
// row every rail has: so the comparison sets the total beside each rail's
// run alone.
#pragma once
#include "cmdbench/report/result.hpp"

#include <string>
#include <utility>
#include <vector>

namespace cmdbench {

// (label, rows) per rail, in rail order.
std::vector<Row> rail_rows(const std::vector<std::pair<std::string, std::vector<Row>>> &rails);

// How long every rail was running at once: the latest start to the earliest
// end; 0 when they never overlapped, or when there are none.
double rails_overlap_seconds(const std::vector<RailPart> &rails);

} // namespace cmdbench

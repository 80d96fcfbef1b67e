// What a run with `pairs` becomes: for each count N of the key (one, or a
// scaling series), one job that runs N pairs of the run's test at once
// (execute/pairs_together.hpp). A series' counts are variants of their own
// ("tcp 4 pairs"), so the comparison sets them side by side.
#pragma once
#include "cmdbench/host/scenario/scenario.hpp"

#include <string>
#include <vector>

namespace cmdbench {

// "1 pair", "4 pairs".
std::string pairs_text(unsigned count);
// The label of pair `k` (0-based) in rows and messages: "pair 1", ...
std::string pair_label(size_t k);
// The run with `count` pairs: a series' count renamed "NAME (N pairs)" and
// variant "VARIANT N pairs"; a single count keeps the run's own labels.
RunSpec pair_count_run(const RunSpec &spec, unsigned count);
// One pair's own run within it: the run itself, no pairs, named after the pair.
RunSpec pair_member_run(const RunSpec &spec, size_t k);

} // namespace cmdbench

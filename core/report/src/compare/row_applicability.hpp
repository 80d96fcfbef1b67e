// Which rows of a run measured nothing: a step the variant does not have
// (sock-steps lists all 17 of cmtime's steps; TCP has no `create qp`).
// Text tables leave them out; JSON and CSV keep every row.
#pragma once
#include "cmdbench/report/result.hpp"

namespace cmdbench {

// True when the row's timed metric is flagged unmeasured (ABI 1.2, or the
// pre-1.2 step rules of old_metric_names.cpp), none of its histograms has a
// sample, and its other values are all 0, counts (such as `conns`) aside.
bool row_measured_nothing(const Row &row);

} // namespace cmdbench

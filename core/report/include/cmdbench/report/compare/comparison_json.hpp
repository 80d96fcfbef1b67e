// The comparison as JSON (`cmdbench compare --format json`; docs/compare.md).
#pragma once
#include "cmdbench/report/compare/comparison.hpp"
#include "cmdbench/report/verdict.hpp"

#include <iosfwd>

namespace cmdbench {

constexpr int kComparisonSchemaVersion = 1;

// `verdicts`: the inputs' expectations judged again (an "expectations"
// member when there are any), read twice: the counts, then the list.
void write_comparison_json(std::ostream &out, const Comparison &c,
                           const VerdictStream &verdicts = {});

} // namespace cmdbench

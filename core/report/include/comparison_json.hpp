// The comparison as JSON (`cmdbench compare --format json`; docs/compare.md).
#pragma once
#include "comparison.hpp"

#include <iosfwd>

namespace cmdbench {

constexpr int kComparisonSchemaVersion = 1;

void write_comparison_json(std::ostream &out, const Comparison &c);

} // namespace cmdbench

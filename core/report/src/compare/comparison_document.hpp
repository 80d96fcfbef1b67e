// The comparison as a JSON value, for the two documents that carry it:
// `cmdbench compare --format json` prints it alone, and a run's final results
// document embeds it as `comparison.result` (docs/results.md).
#pragma once
#include "cmdbench/report/compare/comparison.hpp"

#include <nlohmann/json.hpp>

namespace cmdbench {

// Without the expectations, which write_comparison_json adds.
nlohmann::ordered_json comparison_document(const Comparison &c);

} // namespace cmdbench

// Reads a results JSON document (docs/results.md) back into a Report, for
// `cmdbench compare`. Tolerant of what the format allows to be added or to be
// missing in older files; strict, with a clear message, about the rest.
#pragma once
#include "result.hpp"

#include <stdexcept>
#include <string>

namespace cmdbench {

// Message: "<name>: <what is wrong>", with line:column for invalid JSON and
// a path like runs[2].rows[0].metrics for a missing or mistyped field.
struct ResultsError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

Report read_results_file(const std::string &path);

// `name` is what messages call the document (usually its path).
Report parse_results(const std::string &text, const std::string &name);

} // namespace cmdbench

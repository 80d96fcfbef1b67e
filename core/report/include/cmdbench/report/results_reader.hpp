// Reads a results JSON document (docs/results.md) back into a Report, for
// `cmdbench compare`. Tolerant of what the format allows to be added or to be
// missing in older files; strict, with a clear message, about the rest.
#pragma once
#include "cmdbench/report/result.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace cmdbench {

// Bounds on what a results file may hold (docs/compare.md), far above what
// a run writes (a 64-rank matrix is 4,032 runs per scenario run), so that
// comparing what is read stays quick. The file's size is bounded too
// (input_file.hpp).
constexpr size_t kMaxResultsRuns = 100000;
constexpr size_t kMaxResultsRows = 1000000; // all runs' rows together
// Keys of all runs' `expect` together (each run's are at most
// kMaxExpectKeys, expect_rules.hpp): each key gives a verdict per row, or
// one when no row has its metric, and every verdict is held until written.
constexpr size_t kMaxResultsExpectKeys = 250000;

// Message: "<name>: <what is wrong>", with line:column for invalid JSON and
// a path like runs[2].rows[0].metrics for a missing or mistyped field.
struct ResultsError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

Report read_results_file(const std::string &path);

// `name` is what messages call the document (usually its path).
Report parse_results(const std::string &text, const std::string &name);

// One run written by run_json_line (report.hpp); `name` as above.
RunResult parse_run_line(const std::string &text, const std::string &name);

} // namespace cmdbench

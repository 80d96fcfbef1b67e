// The writers of a whole Report, one function per format (the reporters,
// reporter.hpp, are built on them); the table can also print one run as soon
// as it completes.
#pragma once
#include "cmdbench/report/output_format.hpp"
#include "cmdbench/report/result.hpp"

#include <ostream>
#include <string>

namespace cmdbench {

// 2: matrix mode (docs/matrix.md): a top-level `matrix` and per-run `pair`;
// several runs share a name and repeat, one per pair.
constexpr int kResultsSchemaVersion = 4; // docs/results.md

// rstream-style sizes (1k, 1.5k, 12m) and counts (1k, 100k)
std::string size_str(double bytes);
std::string count_str(double count);

void write_table_run(std::ostream &out, const RunResult &run);
void write_table(std::ostream &out, const Report &report);
struct Comparison;
// `comparison`: the variants compared, given for a final document only (it
// becomes `comparison.result`; an interim rewrite of -o has none).
void write_json(std::ostream &out, const Report &report, const Comparison *comparison = nullptr);
// One run as a results document's `runs` entry, compact, on one line
// (parse_run_line in results_reader.hpp reads it back).
std::string run_json_line(const RunResult &run);
void write_csv(std::ostream &out, const Report &report);

// The whole report in `format`, by its reporter (a matrix job's by its
// matrix form); `comparison` as Reporter::finish takes it.
void write_report(std::ostream &out, const OutputFormat &format, const Report &report,
                  const Comparison *comparison = nullptr);

} // namespace cmdbench

// A reporter writes results in one format: the table, JSON, CSV, the HTML
// page, a matrix job's forms. Each is one class behind this interface and one
// entry of the format registry (output_format.hpp), so a new format is its
// reporter's source file and a line in the registry, nothing more.
#pragma once
#include "cmdbench/report/result.hpp"
#include "cmdbench/report/verdict.hpp"

#include <memory>
#include <ostream>
#include <vector>

namespace cmdbench {

struct Comparison;

class Reporter {
  public:
    virtual ~Reporter() = default;
    // A run just ended. A format read as it goes (the console table) prints
    // it now; a whole document waits for finish.
    virtual void run_done(std::ostream &out, const RunResult &run);
    // The whole report. `comparison`: the variants compared, given for a
    // final document only (an interim rewrite of -o has none).
    virtual void finish(std::ostream &out, const Report &report, const Comparison *comparison) = 0;
    // `cmdbench compare`: saved results (`inputs`) compared, and the verdicts
    // of their expectations, judged as they are read (each time: a format
    // may read them twice). Only a format registered for comparisons has it.
    virtual void finish_comparison(std::ostream &out, const Comparison &c,
                                   const std::vector<const Report *> &inputs,
                                   const VerdictStream &verdicts);
};

} // namespace cmdbench

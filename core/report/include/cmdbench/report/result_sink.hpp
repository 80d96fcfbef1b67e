// Where results go, for `cmdbench run` and for a matrix job's rank 0: the
// console, and the -o file (rewritten whole as runs complete, so nothing is
// lost if a later run hangs or the process is killed; see output_file.hpp
// for how). At the end, the comparison of the variants: as a table on a
// table stdout, in the final JSON document (`comparison.result`), and as the
// --report HTML page; a matrix job's report is its matrices instead. A
// failed write is printed once and remembered for the exit status; the runs
// go on, as the next rewrite may succeed.
#pragma once
#include "cmdbench/report/compare/comparison.hpp"
#include "cmdbench/report/matrix/report_matrix.hpp"
#include "cmdbench/report/output_file.hpp"
#include "cmdbench/report/output_format.hpp"
#include "cmdbench/report/result.hpp"

#include <memory>
#include <optional>
#include <string>

namespace cmdbench {

class ResultSink {
  public:
    ResultSink(FormatRef stdout_format, std::string output_file, std::string report_file = "");
    // The last run of `report` just ended: printed (table), and -o rewritten.
    void run_done(const Report &report);
    // Rank 0 of a matrix job: every pair of run `run` is done (`report`
    // holds the job so far). A table stdout prints its matrices now.
    void matrix_run_done(const Report &report, const std::string &run);
    // Whether matrix_run_done has any use: stdout is a table.
    bool prints_matrix_runs() const { return format_.streams_runs; }
    // -o rewritten with `report` as it stands (not for a stream, which gets
    // the final document alone).
    void write_interim(const Report &report);
    // All runs ended (or were interrupted): every output in its final form.
    void finish(const Report &report);
    bool write_failed() const { return write_failed_; } // some output could not be written

  private:
    void write_file(const Report &report, bool final, const Comparison *comparison);
    void write_html(const Report &report, const Comparison *comparison);
    std::optional<Comparison> compare(const Report &report) const;
    void write_to(const std::string &path, const DocumentWriter &produce);
    const OutputFormat &format_;
    std::unique_ptr<Reporter> stdout_; // prints each run as it ends, if its format does
    std::string file_, report_file_;
    bool write_failed_ = false;
    std::string last_error_; // printed once, not after every run
    MatrixTableStream matrix_table_;
};

} // namespace cmdbench

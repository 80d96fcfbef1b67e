// Reporters of matrix mode (docs/matrix.md), one file per format: the text
// table (report_matrix_table.cpp) and the HTML page with a heatmap per run
// (report_matrix_html.cpp). JSON and CSV are the ordinary writers: a matrix
// report is a Report with `matrix` and per-run `pair` set.
#pragma once
#include "cmdbench/report/result.hpp"

#include <ostream>
#include <set>
#include <string>

namespace cmdbench {

// Per run: the N x N matrix of its main metric (client rank rows, server
// rank columns), the slowest links, and the pairs that did not succeed.
void write_matrix_table(std::ostream &out, const Report &report);

// The same table on a terminal, printed as the job goes: the head (ranks,
// data paths) and each run's matrices once all its pairs are done, then at
// the end the runs not printed yet, the notes and the verdicts. A launcher
// that ends the job drops what its ranks print after it has begun to
// (mpirun --timeout does): every run finished by then has been shown.
class MatrixTableStream {
  public:
    // Every pair of run `run` is done; `report` holds the job so far.
    void run_done(std::ostream &out, const Report &report, const std::string &run);
    // The rest, or the whole table when no run was printed.
    void finish(std::ostream &out, const Report &report);

  private:
    std::set<std::string> printed_;
};

// One self-contained page (no script, no external reference).
void write_matrix_html(std::ostream &out, const Report &report);

} // namespace cmdbench

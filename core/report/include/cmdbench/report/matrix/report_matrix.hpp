// Reporters of matrix mode (docs/matrix.md), one file per format: the text
// table (report_matrix_table.cpp) and the HTML page with a heatmap per run
// (report_matrix_html.cpp). JSON and CSV are the ordinary writers: a matrix
// report is a Report with `matrix` and per-run `pair` set.
#pragma once
#include "cmdbench/report/result.hpp"

#include <ostream>

namespace cmdbench {

// Per run: the N x N matrix of its main metric (client rank rows, server
// rank columns), the slowest links, and the pairs that did not succeed.
void write_matrix_table(std::ostream &out, const Report &report);

// One self-contained page (no script, no external reference).
void write_matrix_html(std::ostream &out, const Report &report);

} // namespace cmdbench

// The heatmap of one matrix run on the HTML page (report_matrix_heatmap.cpp).
#pragma once
#include "cmdbench/report/matrix/matrix_view.hpp"
#include "cmdbench/report/result.hpp"

#include <ostream>

namespace cmdbench {

// Up to this many ranks a heatmap is a table, a cell a pair with its value
// and a tooltip; beyond, an image of a pixel a pair, so that 1,024 ranks
// are a few hundred kilobytes rather than a million table cells.
constexpr int kHeatTableRanks = 64;

// The heatmap and its legend: what the colours are set against, and the
// marks of a failed pair and a pair not run.
void write_heatmap(std::ostream &out, const Report &report, const MatrixView &v);

// The page's own style for it, after the page's.
extern const char *const kHeatmapStyle;

} // namespace cmdbench

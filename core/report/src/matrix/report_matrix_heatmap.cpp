// A matrix run's heatmap (client rank rows, server rank columns): a table
// for a few ranks, an image of a pixel a pair for many (matrix_heatmap.hpp).
#include "cmdbench/report/matrix/matrix_heat.hpp"
#include "cmdbench/report/svg_plot.hpp"
#include "matrix/matrix_heatmap.hpp"
#include "matrix/png_image.hpp"

#include <map>

namespace cmdbench {

const char *const kHeatmapStyle =
    R"(table.heatmap td.notrun{background:#e4e4e4;color:#777}
img.heatmap{image-rendering:pixelated;border:1px solid #ccc;max-width:100%}
.mark{padding:1px 6px;margin-right:4px}table.path td{text-align:left}
)";

namespace {

using svg::escape;

// Not a pair of the pattern, a failed pair, a pair not run: the image's colours.
constexpr Rgb kNone{255, 255, 255}, kFailed{34, 34, 34}, kNotRun{228, 228, 228};

std::string node_of(const Report &report, int rank) {
    for (const MatrixRank &r : report.matrix->ranks)
        if (r.rank == rank) return r.node;
    return "?";
}

void legend(std::ostream &out, const MatrixView &v, bool image) {
    out << "<p class=\"legend\">Colours against " << escape(heat_reference(v)) << ". ";
    if (image)
        out << "A pixel a pair, client rank 0 at the top, server rank 0 at the left; "
               "<span class=\"mark\" style=\"background:#222;color:#fff\">black</span>failed, "
               "<span class=\"mark\" style=\"background:#e4e4e4\">grey</span>not run (a rank "
               "gone, an interrupt), white: not a pair of the pattern.";
    else
        out << "<span class=\"mark\" style=\"background:#222;color:#fff\">✗</span>failed, "
               "<span class=\"mark\" style=\"background:#e4e4e4;color:#777\">–</span>not run (a "
               "rank gone, an interrupt).";
    const std::string line = reference_line(v);
    if (!line.empty()) out << " " << escape(line) << ".";
    out << "</p>\n";
}

// Each pair's notes (background, counters) for its cell's tooltip, a
// line each.
std::map<std::pair<int, int>, std::string> tooltip_notes(const MatrixView &v) {
    std::map<std::pair<int, int>, std::string> out;
    for (const PairNote &n : v.notes)
        out[{n.client, n.server}] += "\n" + pair_note_text(n, "→");
    return out;
}

void table(std::ostream &out, const Report &report, const MatrixView &v) {
    const std::string unit = v.metric ? unit_of(*v.metric) : "";
    const auto notes = tooltip_notes(v);
    out << "<table class=\"heatmap\">\n<caption>" << escape(metric_caption(v))
        << ": client rank (row) → server rank (column)</caption>\n<thead><tr><th></th>";
    for (int j = 0; j < v.ranks; ++j)
        out << "<th>" << j << "</th>";
    out << "</tr></thead>\n<tbody>\n";
    for (int i = 0; i < v.ranks; ++i) {
        out << "<tr><th>" << i << "</th>";
        for (int j = 0; j < v.ranks; ++j) {
            const MatrixCell &c = v.cells[size_t(i)][size_t(j)];
            const std::string who = std::to_string(i) + " (" + node_of(report, i) + ") → " +
                                    std::to_string(j) + " (" + node_of(report, j) + ")";
            const auto noted = notes.find({i, j});
            const std::string more = noted == notes.end() ? "" : noted->second;
            if (c.value) {
                out << "<td style=\"background:" << heat_color(cell_heat(v, c)) << "\" title=\""
                    << escape(who + ": " + svg::format_value(*c.value) + " " + unit + more) << "\">"
                    << svg::format_value(*c.value) << "</td>";
            } else if (c.scheduled) {
                out << "<td class=\"" << (c.not_run ? "notrun" : "fail") << "\" title=\""
                    << escape(who + ": " + (c.problem.empty() ? "no value" : c.problem) + more)
                    << "\">" << (c.not_run ? "–" : "✗") << "</td>";
            } else {
                out << "<td class=\"none\"></td>";
            }
        }
        out << "</tr>\n";
    }
    out << "</tbody>\n</table>\n";
}

void image(std::ostream &out, const MatrixView &v) {
    const unsigned n = unsigned(v.ranks);
    std::vector<Rgb> pixels;
    pixels.reserve(size_t(n) * n);
    for (const auto &row : v.cells)
        for (const MatrixCell &c : row)
            pixels.push_back(c.value        ? heat_rgb(cell_heat(v, c))
                             : !c.scheduled ? kNone
                             : c.not_run    ? kNotRun
                                            : kFailed);
    // At least 2 screen pixels a pair while that fits the page.
    const unsigned shown = n * 2 <= 1024 ? n * 2 : n;
    out << "<p class=\"caption\"><strong>" << escape(metric_caption(v))
        << "</strong>: client rank (row) → server rank (column), " << n << " × " << n
        << "</p>\n<img class=\"heatmap\" width=\"" << shown << "\" height=\"" << shown
        << "\" alt=\"" << escape("heatmap of " + v.run) << "\" src=\"data:image/png;base64,"
        << base64(png_image(pixels, n, n)) << "\"/>\n";
}

} // namespace

void write_heatmap(std::ostream &out, const Report &report, const MatrixView &v) {
    const bool as_image = v.ranks > kHeatTableRanks;
    if (as_image)
        image(out, v);
    else
        table(out, report, v);
    legend(out, v, as_image);
}

} // namespace cmdbench

// The HTML page of a matrix run: each rank's data path, per run a heatmap (a
// colored N x N table, client rank rows, server rank columns, or an image
// past kHeatTableRanks: report_matrix_heatmap.cpp) and its slowest links.
// Like the comparison page: self-contained, no script, a
// Content-Security-Policy that forbids every load (images: inline data only),
// well-formed XML.
#include "cmdbench/report/matrix/matrix_heat.hpp"
#include "cmdbench/report/matrix/matrix_verdicts.hpp"
#include "cmdbench/report/matrix/matrix_view.hpp"
#include "cmdbench/report/matrix/report_matrix.hpp"
#include "cmdbench/report/reporter.hpp"
#include "cmdbench/report/svg_plot.hpp"
#include "html/html_style.hpp"
#include "matrix/matrix_heatmap.hpp"
#include "matrix/matrix_rank_paths.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cmdbench {
namespace {

using svg::escape;

// After kHtmlBaseStyle (html_style.hpp).
constexpr const char *kStyle =
    R"(table{border-collapse:collapse;margin:8px 0 20px;font-size:13px}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f3f3f3}
table.heatmap td,table.heatmap th{padding:2px 4px;font-size:11px;min-width:28px}
table.heatmap td.none{background:#fff;color:#bbb}table.heatmap td.fail{background:#222;color:#fff}
caption{text-align:left;font-weight:bold;padding:4px 0}
.legend{font-size:12px;color:#555}ol.slowest li{margin:2px 0}
footer{margin-top:32px;font-size:12px;color:#666}
)"
    // The verdict summary (report_matrix_verdicts.cpp).
    R"(.held{border:2px solid #1a7f37;background:#e9f5ec;padding:8px 12px}
.banner{border:2px solid #b3261e;background:#fdecea;color:#7a1a14;padding:8px 12px}
table.verdicts td{text-align:left}tr.verdict-fail td:first-child{color:#b3261e;font-weight:bold}
)";

std::string number(double v) {
    return svg::format_value(v);
}

const MatrixRank *rank_of(const Report &report, int rank) {
    for (const MatrixRank &r : report.matrix->ranks)
        if (r.rank == rank) return &r;
    return nullptr;
}

std::string node_of(const Report &report, int rank) {
    const MatrixRank *r = rank_of(report, rank);
    return r ? r->node : "?";
}

void slowest(std::ostream &out, const Report &report, const MatrixView &v) {
    if (!v.median || v.slowest.empty()) return;
    const std::string unit = unit_of(*v.metric);
    out << "<p>Slowest links (ratio to the median " << escape(number(*v.median) + " " + unit)
        << "):</p>\n<ol class=\"slowest\">\n";
    for (const SlowLink &s : v.slowest) {
        char ratio[32];
        std::snprintf(ratio, sizeof ratio, "%.2f×", s.ratio);
        out << "<li>" << s.client << " (" << escape(node_of(report, s.client)) << ") → " << s.server
            << " (" << escape(node_of(report, s.server))
            << "): " << escape(number(s.value) + " " + unit) << ", " << ratio << "</li>\n";
    }
    out << "</ol>\n";
}

void failures(std::ostream &out, const MatrixView &v) {
    bool any = false;
    for (int i = 0; i < v.ranks; ++i)
        for (int j = 0; j < v.ranks; ++j) {
            const MatrixCell &c = v.cells[size_t(i)][size_t(j)];
            if (c.problem.empty()) continue;
            if (!any) out << "<p>Pairs that did not succeed:</p>\n<ul class=\"failed\">\n";
            any = true;
            out << "<li>" << i << " → " << j << ": " << escape(c.problem) << "</li>\n";
        }
    if (any) out << "</ul>\n";
}

// Each pair's background Gb/s and counters that are not traffic, as the
// table lists them.
void pair_notes(std::ostream &out, const MatrixView &v) {
    if (v.notes.empty()) return;
    out << "<p>Per pair: the background's Gb/s, counters that are not traffic:</p>\n"
           "<ul class=\"pair-notes\">\n";
    for (const std::string &line : pair_note_lines(v, "→"))
        out << "<li>" << escape(line) << "</li>\n";
    out << "</ul>\n";
}

// The scale, with a swatch at each marked ratio.
void legend(std::ostream &out) {
    out << "<p class=\"legend\">Colour: the ratio of a cell to its run's median, on a log scale, "
           "so a link many times slower than the rest stands out and a few percent of noise "
           "stays near the median's green: ";
    const struct {
        double position;
        const char *label;
    } marks[] = {{-1, "10× better"}, {0, "median"}, {0.5, "3.2× worse"}, {1, "10× worse or more"}};
    for (const auto &m : marks)
        out << "<span style=\"background:" << heat_color(m.position)
            << ";padding:1px 6px;margin-right:4px\">" << m.label << "</span>";
    out << "(worse: higher latency, lower bandwidth or rate). Where an absolute reference is "
           "known (the best rail's median, a pair's link rate) a cell takes the worse of the "
           "two colours; each heatmap's legend says which.</p>\n";
}

} // namespace

void write_matrix_html(std::ostream &out, const Report &report) {
    if (!report.matrix) return;
    const MatrixInfo &m = *report.matrix;
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
           "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
           "style-src 'unsafe-inline'; img-src data:\"/>\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>"
        << escape("cmdbench matrix: " + m.pattern + ", " + std::to_string(m.ranks.size()) +
                  " ranks")
        << "</title>\n<style>" << kHtmlBaseStyle << kStyle << kHeatmapStyle
        << "</style>\n</head>\n<body>\n<h1>cmdbench matrix</h1>\n"
        << "<p>Pattern <strong>" << escape(m.pattern) << "</strong>, " << m.ranks.size()
        << " ranks, " << m.rounds << " rounds per run"
        << (m.one_pair_at_a_time ? " (one pair at a time)" : "") << "; started "
        << escape(report.context.start_time) << " by " << escape(m.launcher) << ".</p>\n";
    legend(out);
    for (const std::string &note : report.context.notes)
        out << "<p class=\"note\"><strong>Note:</strong> " << escape(note) << "</p>\n";
    write_matrix_verdicts_html(out, matrix_verdicts(report, evaluate_expectations(report)));
    // Many ranks' rows folded away: the heatmaps come first.
    const bool fold = m.ranks.size() > size_t(kHeatTableRanks);
    out << "<h2>Ranks</h2>\n"
        << (fold ? "<details><summary>each rank's node and server</summary>\n" : "")
        << "<table class=\"ranks\">\n<thead><tr><th>rank</th><th>node</th>"
           "<th>server</th></tr></thead>\n<tbody>\n";
    for (const MatrixRank &r : m.ranks)
        out << "<tr><td>" << r.rank << "</td><td>" << escape(r.node) << "</td><td>"
            << escape(r.address) << "</td></tr>\n";
    out << "</tbody>\n</table>\n" << (fold ? "</details>\n" : "");
    write_rank_paths_html(out, report);
    for (const MatrixView &v : matrix_views(report)) {
        out << "<h2>" << escape(view_title(v)) << " <span class=\"legend\">("
            << escape(v.test + (v.transport.empty() ? "" : "/" + v.transport)) << ", " << v.filled
            << " of " << v.pairs << " pairs measured)</span></h2>\n";
        write_heatmap(out, report, v);
        slowest(out, report, v);
        failures(out, v);
        pair_notes(out, v);
    }
    out << "<footer>Written by cmdbench " << escape(CMDBENCH_VERSION)
        << ". Self-contained: no script, nothing loaded from "
           "elsewhere.</footer>\n</body>\n</html>\n";
}

namespace {

class MatrixHtmlReporter : public Reporter {
  public:
    void finish(std::ostream &out, const Report &report, const Comparison *) override {
        write_matrix_html(out, report);
    }
};

} // namespace

std::unique_ptr<Reporter> make_matrix_html_reporter() {
    return std::make_unique<MatrixHtmlReporter>();
}

} // namespace cmdbench

#include "cmdbench/report/matrix/matrix_verdicts.hpp"
#include "cmdbench/report/matrix/matrix_view.hpp"
#include "cmdbench/report/matrix/report_matrix.hpp"
#include "cmdbench/report/reporter.hpp"
#include "cmdbench/report/svg_plot.hpp"
#include "format/printable_lines.hpp"
#include "matrix/matrix_rank_paths.hpp"

#include <algorithm>
#include <iomanip>
#include <string>

namespace cmdbench {
namespace {

std::string pad(const std::string &s, size_t width) {
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string cell_text(const MatrixCell &c, bool diagonal) {
    if (c.value) return svg::format_value(*c.value);
    if (diagonal || !c.scheduled) return ".";
    return c.not_run ? "--" : "FAIL";
}

bool has_not_run(const MatrixView &v) {
    for (const auto &row : v.cells)
        for (const MatrixCell &c : row)
            if (c.not_run && !c.value) return true;
    return false;
}

std::string node_of(const Report &report, int rank) {
    for (const MatrixRank &r : report.matrix->ranks)
        if (r.rank == rank) return r.node;
    return "?";
}

// The matrix's latency is one-way, as the verdicts' (the table of a single
// run shows the round trip): say so beside the figures.
std::string latency_note(const MatrixView &v) {
    const bool latency = v.metric && (*v.metric == CompareMetric::LatencyP50 ||
                                      *v.metric == CompareMetric::LatencyP99);
    return latency ? "; latency one-way (half the round trip)" : "";
}

// What each pair's run would show under its title in a single run's table:
// the background's Gb/s, counters that are not traffic.
void write_pair_notes(std::ostream &out, const MatrixView &v) {
    for (const std::string &line : pair_note_lines(v, "->"))
        out << "  " << line << '\n';
}

void write_view(std::ostream &out, const Report &report, const MatrixView &v) {
    out << "\n"
        << view_title(v) << " (" << v.test << (v.transport.empty() ? "" : "/" + v.transport)
        << "): " << metric_caption(v) << "; " << v.filled << " of " << v.pairs << " pairs measured"
        << latency_note(v) << "\n";
    if (const std::string line = reference_line(v); !line.empty()) out << line << '\n';
    out << "client rank (row) -> server rank (column)\n";
    size_t width = std::max<size_t>(4, std::to_string(v.ranks - 1).size());
    for (const auto &row : v.cells)
        for (const MatrixCell &c : row)
            if (c.value) width = std::max(width, svg::format_value(*c.value).size());
    const size_t label = std::max<size_t>(4, std::to_string(v.ranks - 1).size());
    out << std::string(label, ' ');
    for (int j = 0; j < v.ranks; ++j)
        out << ' ' << pad(std::to_string(j), width);
    out << '\n';
    for (int i = 0; i < v.ranks; ++i) {
        out << pad(std::to_string(i), label);
        for (int j = 0; j < v.ranks; ++j)
            out << ' ' << pad(cell_text(v.cells[size_t(i)][size_t(j)], i == j), width);
        out << '\n';
    }
    if (has_not_run(v))
        out << "(FAIL: the pair failed; --: not run, a rank gone or an interrupt)\n";
    if (v.median && !v.slowest.empty()) {
        out << "slowest links (ratio to the median " << svg::format_value(*v.median) << " "
            << unit_of(*v.metric) << "):\n";
        for (const SlowLink &s : v.slowest)
            out << "  " << s.client << " -> " << s.server << "  (" << node_of(report, s.client)
                << " -> " << node_of(report, s.server) << ")  " << svg::format_value(s.value) << " "
                << unit_of(*v.metric) << "  " << std::fixed << std::setprecision(2) << s.ratio
                << "x\n"
                << std::defaultfloat;
    }
    for (int i = 0; i < v.ranks; ++i)
        for (int j = 0; j < v.ranks; ++j) {
            const MatrixCell &c = v.cells[size_t(i)][size_t(j)];
            if (!c.problem.empty()) out << "  " << i << " -> " << j << ": " << c.problem << '\n';
        }
    write_pair_notes(out, v);
}

} // namespace

namespace {

void write_head(std::ostream &out, const MatrixInfo &m) {
    out << "matrix: " << m.pattern << ", " << m.ranks.size() << " ranks, " << m.rounds
        << " rounds per run" << (m.one_pair_at_a_time ? " (one pair at a time)" : "") << "\n";
}

void write_ranks(std::ostream &out, const Report &report) {
    for (const MatrixRank &r : report.matrix->ranks)
        out << "  rank " << r.rank << ": " << r.node << " " << r.address << '\n';
    write_rank_paths_text(out, report);
}

void write_notes(std::ostream &out, const Report &report) {
    for (const std::string &note : report.context.notes)
        out << "note: " << note << '\n';
}

} // namespace

void write_matrix_table(std::ostream &out, const Report &report) {
    if (!report.matrix) return;
    write_head(out, *report.matrix);
    // The verdicts first: with a thousand ranks, the rank list alone fills
    // many screens.
    const MatrixVerdicts verdicts = matrix_verdicts(report, evaluate_expectations(report));
    write_matrix_verdicts_table(out, verdicts);
    if (!verdicts.links.empty()) out << "ranks:\n";
    write_ranks(out, report);
    write_notes(out, report);
    for (const MatrixView &v : matrix_views(report))
        write_view(out, report, v);
}

void MatrixTableStream::run_done(std::ostream &out, const Report &report, const std::string &run) {
    if (!report.matrix) return;
    PrintableLines text(out);
    if (printed_.empty()) {
        write_head(text, *report.matrix);
        write_ranks(text, report);
    }
    printed_.insert(run);
    for (const MatrixView &v : matrix_views(report))
        if (v.run == run) write_view(text, report, v);
}

void MatrixTableStream::finish(std::ostream &out, const Report &report) {
    if (!report.matrix) return;
    PrintableLines text(out);
    if (printed_.empty()) {
        write_matrix_table(text, report);
        return;
    }
    for (const MatrixView &v : matrix_views(report))
        if (!printed_.count(v.run)) write_view(text, report, v);
    text << '\n';
    write_notes(text, report);
    write_matrix_verdicts_table(text, matrix_verdicts(report, evaluate_expectations(report)));
}

namespace {

// A matrix job's runs are printed as its matrices, at the end.
class MatrixTableReporter : public Reporter {
  public:
    void finish(std::ostream &out, const Report &report, const Comparison *) override {
        PrintableLines text(out);
        write_matrix_table(text, report);
    }
};

} // namespace

std::unique_ptr<Reporter> make_matrix_table_reporter() {
    return std::make_unique<MatrixTableReporter>();
}

} // namespace cmdbench

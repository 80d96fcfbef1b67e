// Console table: a run's table (run_table.hpp) printed aligned, a fixed
// layout's columns with that tool's exact printf formats, so the output reads
// like the tool it reproduces.
#include "cmdbench/report/compare/comparison.hpp"
#include "cmdbench/report/pair_scaling.hpp"
#include "cmdbench/report/report.hpp"
#include "cmdbench/report/reporter.hpp"
#include "cmdbench/report/verdict.hpp"
#include "format/printable_lines.hpp"
#include "format/run_table.hpp"

#include <algorithm>

namespace cmdbench {
namespace {

std::string pad(const std::string &s, size_t width, bool left) {
    if (s.size() >= width) return s;
    const std::string fill(width - s.size(), ' ');
    return left ? s + fill : fill + s;
}

// Lines of a generic column block: header first, then one per row; columns
// separated by two spaces, each as wide as its widest cell.
std::vector<std::string> render(const std::vector<TableColumn> &cols, size_t rows) {
    std::vector<std::string> lines(rows + 1);
    for (size_t c = 0; c < cols.size(); ++c) {
        size_t width = cols[c].header.size();
        for (const auto &cell : cols[c].cells)
            width = std::max(width, cell.size());
        for (size_t r = 0; r <= rows; ++r) {
            if (c > 0) lines[r] += "  ";
            lines[r] += pad(r == 0 ? cols[c].header : cols[c].cells[r - 1], width, cols[c].left);
        }
    }
    return lines;
}

std::string rtrim(std::string s) {
    s.erase(s.find_last_not_of(' ') + 1);
    return s;
}

} // namespace

void write_table_run(std::ostream &out, const RunResult &full) {
    out << run_title(full) << '\n';
    for (const auto &line : run_notes(full))
        out << line << '\n';
    if (full.rows.empty()) return;
    const RunTable table = run_table(full);
    const RunResult &run = table.shown;
    const std::string note = hidden_note(table.hidden);
    if (run.rows.empty()) {
        out << note << '\n';
        if (const std::string cpu = cpu_line(full); !cpu.empty()) out << cpu << '\n';
        return;
    }
    const FixedLayout *fixed = table.fixed;
    const std::vector<TableColumn> &cols = table.columns;

    const std::vector<std::string> extra = render(cols, run.rows.size());
    const std::string header = fixed ? fixed_header(*fixed) : "";
    for (size_t r = 0; r <= run.rows.size(); ++r) {
        std::string line;
        if (fixed) {
            line = r == 0 ? header : fixed_row(*fixed, run.rows[r - 1], run.rows[r - 1].name);
            // A fixed layout's rows may end before its header (rstream's do,
            // by two columns); pad them so any further columns line up under
            // their headers.
            if (!cols.empty()) line = pad(line, header.size(), true) + "  ";
        }
        out << rtrim(line + extra[r]) << '\n';
    }
    if (!note.empty()) out << note << '\n';
    if (const std::string cpu = cpu_line(full); !cpu.empty()) out << cpu << '\n';
}

void write_table(std::ostream &out, const Report &report) {
    bool first = true;
    for_each_run(report, [&](const RunResult &run) {
        if (!first) out << '\n';
        first = false;
        write_table_run(out, run);
    });
    if (!report.matrix) write_scaling_table(out, pair_scaling(report));
    const auto verdicts = evaluate_expectations(report);
    if (!verdicts.empty()) {
        out << '\n';
        write_verdicts_table(out, verdicts);
    }
}

namespace {

// On stdout each run is printed as it ends (run_done); in a file, whole.
// Every line is made printable on its way out (printable_lines.hpp).
class TableReporter : public Reporter {
  public:
    void run_done(std::ostream &out, const RunResult &run) override {
        PrintableLines text(out);
        write_table_run(text, run);
    }
    void finish(std::ostream &out, const Report &report, const Comparison *) override {
        PrintableLines text(out);
        write_table(text, report);
    }
    void finish_comparison(std::ostream &out, const Comparison &c,
                           const std::vector<const Report *> &,
                           const VerdictStream &verdicts) override {
        PrintableLines text(out);
        write_comparison_table(text, c);
        write_verdicts_table(text, verdicts, "\n");
    }
};

} // namespace

std::unique_ptr<Reporter> make_table_reporter() {
    return std::make_unique<TableReporter>();
}

} // namespace cmdbench
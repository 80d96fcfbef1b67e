// GitHub-flavoured Markdown: the console table's figures (run_table.hpp) and
// the comparison's (comparison_grid.hpp) as Markdown tables, with the same
// column names, cells and units, to paste into an issue or a review.
// Everything from a scenario or a results file is escaped: a `|` or a line
// break in a name cannot end a cell or a row, and no HTML passes through.
#include "cmdbench/control/printable_text.hpp"
#include "cmdbench/report/reporter.hpp"
#include "cmdbench/report/verdict.hpp"
#include "compare/comparison_grid.hpp"
#include "format/markup_entity.hpp"
#include "format/run_table.hpp"

#include <ostream>

namespace cmdbench {
namespace {

// Inline text: control characters (a line break too) become visible escapes
// (printable_text), HTML's specials become entities, and what Markdown would
// read as markup or as a cell's end is backslash-escaped.
std::string md(const std::string &text) {
    std::string out;
    for (char ch : printable_text(text)) {
        if (const char *entity = markup_entity(ch, false)) {
            out += entity;
            continue;
        }
        switch (ch) {
        case '\\':
        case '|':
        case '`':
        case '*':
        case '[':
        case ']':
        case '~':
            out += '\\';
            out += ch;
            break;
        default:
            out += ch;
        }
    }
    return out;
}

void write_row(std::ostream &out, const std::vector<std::string> &cells) {
    out << '|';
    for (const auto &cell : cells)
        out << ' ' << md(cell) << " |";
    out << '\n';
}

// Header, alignment line (names left, figures right), one line per row.
void write_grid(std::ostream &out, const std::vector<std::vector<std::string>> &lines,
                const std::vector<bool> &left) {
    if (lines.empty()) return;
    write_row(out, lines[0]);
    out << '|';
    for (size_t i = 0; i < lines[0].size(); ++i)
        out << (i < left.size() && left[i] ? " :--- |" : " ---: |");
    out << '\n';
    for (size_t r = 1; r < lines.size(); ++r)
        write_row(out, lines[r]);
}

void write_columns(std::ostream &out, const std::vector<TableColumn> &cols) {
    const size_t rows = cols.empty() ? 0 : cols[0].cells.size();
    std::vector<std::vector<std::string>> lines(rows + 1);
    std::vector<bool> left;
    for (const auto &c : cols) {
        lines[0].push_back(c.header);
        left.push_back(c.left);
        for (size_t r = 0; r < rows; ++r)
            lines[r + 1].push_back(c.cells[r]);
    }
    write_grid(out, lines, left);
}

void write_lines(std::ostream &out, const std::vector<std::string> &lines) {
    if (lines.empty()) return;
    out << '\n';
    for (const auto &line : lines)
        out << "- " << md(line) << '\n';
}

void write_run(std::ostream &out, const RunResult &full) {
    // The title without the console's "== ".
    out << "### " << md(run_title(full).substr(3)) << '\n';
    write_lines(out, run_notes(full));
    if (full.rows.empty()) return;
    const RunTable table = run_table(full);
    std::vector<TableColumn> cols;
    if (table.fixed) cols = fixed_cells(*table.fixed, table.shown);
    cols.insert(cols.end(), table.columns.begin(), table.columns.end());
    if (!cols.empty()) {
        out << '\n';
        write_columns(out, cols);
    }
    std::vector<std::string> after;
    if (table.hidden > 0) after.push_back(hidden_note(table.hidden));
    if (const std::string cpu = cpu_line(full); !cpu.empty()) after.push_back(cpu);
    write_lines(out, after);
}

// A row at a time, not a grid of them all: there may be a million.
void write_verdicts(std::ostream &out, const VerdictStream &verdicts) {
    VerdictTotals t;
    if (!verdicts) return;
    verdicts([&](const ExpectVerdict &v) {
        if (t.total() == 0) {
            out << "\n### expectations\n\n";
            write_grid(out, {{"verdict", "expectation"}}, {true, true});
        }
        t.add(v);
        write_row(out, {outcome_label(v.outcome), verdict_text(v)});
    });
    if (t.total()) out << '\n' << md(t.summary()) << '\n';
}

class MarkdownReporter : public Reporter {
  public:
    void finish(std::ostream &out, const Report &report, const Comparison *) override {
        bool first = true;
        for_each_run(report, [&](const RunResult &run) {
            if (!first) out << '\n';
            first = false;
            write_run(out, run);
        });
        write_verdicts(out, verdicts_of({&report}));
    }

    void finish_comparison(std::ostream &out, const Comparison &c,
                           const std::vector<const Report *> &,
                           const VerdictStream &verdicts) override {
        out << "## " << md(comparison_caption(c)) << '\n';
        std::vector<std::string> warnings;
        if (!c.software_rdma.empty()) warnings.push_back("! " + c.software_rdma);
        if (c.rows.empty()) warnings.push_back("(nothing to compare)");
        write_lines(out, warnings);
        for (const ComparisonGrid &g : comparison_grids(c)) {
            out << "\n### " << md(g.group) << "\n\n";
            write_grid(out, g.lines, {true, true, true});
        }
        if (const std::string wide = wide_spread_note(c); !wide.empty())
            out << "\n! " << md(wide) << '\n';
        if (!c.notes.empty()) {
            out << "\nnotes:\n";
            write_lines(out, c.notes);
        }
        write_verdicts(out, verdicts);
    }
};

} // namespace

std::unique_ptr<Reporter> make_markdown_reporter() {
    return std::make_unique<MarkdownReporter>();
}

} // namespace cmdbench

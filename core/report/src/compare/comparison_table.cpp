// The comparison as a text table: a block per group, one line per (item,
// metric), the variants' medians, then each variant's ratio to the baseline.
#include "cmdbench/control/printable_text.hpp"
#include "compare/comparison_grid.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

namespace cmdbench {
namespace {

// Three or four significant digits, and no exponent: people compare these
// by eye, column against column.
std::string num(double v) {
    char text[64];
    const double a = std::fabs(v);
    int decimals = 2;
    if (a >= 1000 || a == 0)
        decimals = 0;
    else if (a >= 100)
        decimals = 1;
    else if (a < 1) // three significant digits
        decimals = std::min(9, 2 - int(std::floor(std::log10(a))));
    std::snprintf(text, sizeof text, "%.*f", decimals, v);
    return text;
}

// 0.25 -> "25": the spread limit as people say it.
std::string percent(double share) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", share * 100);
    return text;
}

std::string value_text(const Comparison &c, const CompareCell &cell) {
    if (!cell.value) return "-";
    const Spread &s = *cell.value;
    std::string text = num(s.median);
    if (s.n > 1) text += " [" + num(s.min) + "\u2013" + num(s.max) + "]";
    if (wide_spread(c, cell)) text += " !";
    return text;
}

std::string ratio_text(const CompareCell &cell, const CompareMetric &m) {
    if (cell.verdict == Verdict::NoClearDifference) return "~same";
    if (cell.verdict != Verdict::Ratio || !cell.ratio) return "-";
    const double r = *cell.ratio;
    char text[64];
    const int decimals = r >= 100 ? 0 : r >= 10 ? 1 : r >= 0.1 ? 2 : 3;
    std::snprintf(text, sizeof text, "%.*fx", decimals, r);
    std::string out = text;
    if (out == "1.00x") return out;
    const bool better = (r > 1) == higher_is_better(m);
    return out + (better ? " better" : " worse");
}

// Display width of UTF-8 text: the en dash is three bytes, one column.
size_t width(const std::string &s) {
    size_t w = 0;
    for (unsigned char ch : s)
        if ((ch & 0xC0) != 0x80) ++w;
    return w;
}

void print_grid(std::ostream &out, const std::vector<std::vector<std::string>> &grid) {
    std::vector<size_t> widths;
    for (const auto &line : grid)
        for (size_t i = 0; i < line.size(); ++i) {
            if (widths.size() <= i) widths.push_back(0);
            widths[i] = std::max(widths[i], width(line[i]));
        }
    for (const auto &line : grid) {
        std::string text;
        for (size_t i = 0; i < line.size(); ++i) {
            text += "  " + line[i];
            if (i + 1 < line.size()) text += std::string(widths[i] - width(line[i]), ' ');
        }
        out << text << '\n';
    }
}

// Names, groups, variants, units and notes come from results files and
// plugins: their control characters are shown as escapes, never reach the
// terminal as commands (docs/security.md).
std::vector<std::string> header(const Comparison &c) {
    std::vector<std::string> line{"item", "metric", "unit"};
    for (const auto &col : c.columns)
        line.push_back(printable_text(col));
    for (size_t i = 0; i < c.columns.size(); ++i)
        if (i != c.baseline)
            line.push_back(printable_text(c.columns[i] + "/" + c.columns[c.baseline]));
    return line;
}

std::vector<std::string> line_of(const Comparison &c, const CompareRow &row) {
    std::vector<std::string> line{printable_text(row.item), printable_text(row.metric.label),
                                  printable_text(row.metric.unit)};
    for (const auto &cell : row.cells)
        line.push_back(value_text(c, cell));
    for (size_t i = 0; i < row.cells.size(); ++i)
        if (i != c.baseline) line.push_back(ratio_text(row.cells[i], row.metric));
    return line;
}

} // namespace

std::string comparison_caption(const Comparison &c) {
    bool spread = false, same = false;
    for (const auto &row : c.rows)
        for (const auto &cell : row.cells) {
            spread = spread || (cell.value && cell.value->n > 1);
            same = same || cell.verdict == Verdict::NoClearDifference;
        }
    std::string text = "comparison";
    if (!c.columns.empty()) text += " (baseline " + printable_text(c.columns[c.baseline]) + ")";
    text += std::string(": medians") + (spread ? " [min\u2013max of repeats]" : "");
    if (c.columns.size() > 1) text += ", ratio = variant / baseline";
    if (same) text += "; ~same: within the spread";
    return text;
}

std::vector<ComparisonGrid> comparison_grids(const Comparison &c) {
    std::vector<ComparisonGrid> grids;
    for (size_t i = 0; i < c.rows.size();) {
        ComparisonGrid g{printable_text(c.rows[i].group), {header(c)}};
        const std::string &group = c.rows[i].group;
        for (; i < c.rows.size() && c.rows[i].group == group; ++i)
            g.lines.push_back(line_of(c, c.rows[i]));
        grids.push_back(std::move(g));
    }
    return grids;
}

std::string wide_spread_note(const Comparison &c) {
    const size_t wide = count_wide_spreads(c);
    if (wide == 0) return {};
    return std::to_string(wide) + (wide == 1 ? " value's" : " values'") +
           " repeats spread wider than " + percent(c.spread_limit) +
           "% of the median ((max-min)/median): too noisy to compare; rerun with more "
           "repeats or on a quieter machine";
}

void write_comparison_table(std::ostream &out, const Comparison &c) {
    out << "== " << comparison_caption(c) << '\n';
    if (!c.software_rdma.empty()) out << "! " << printable_text(c.software_rdma) << '\n';
    if (c.rows.empty()) out << "  (nothing to compare)\n";
    for (const ComparisonGrid &g : comparison_grids(c)) {
        out << '\n' << g.group << '\n';
        print_grid(out, g.lines);
    }
    if (const std::string wide = wide_spread_note(c); !wide.empty()) out << "\n! " << wide << '\n';
    if (!c.notes.empty()) {
        out << "\nnotes:\n";
        for (const auto &note : c.notes)
            out << "  " << printable_text(note) << '\n';
    }
}

} // namespace cmdbench

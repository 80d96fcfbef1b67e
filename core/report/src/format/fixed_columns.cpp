#include "cmdbench/report/fixed_columns.hpp"

#include "cmdbench/report/report.hpp"
#include "cmdbench/report/report_format.hpp"

#include <cstdio>

namespace cmdbench {
namespace {

// Formats are the layout's own constants, never input.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
template <typename Arg> std::string formatted(const char *format, Arg arg) {
    const int size = std::snprintf(nullptr, 0, format, arg);
    if (size <= 0) return {};
    std::string out(size_t(size) + 1, '\0');
    std::snprintf(out.data(), out.size(), format, arg);
    out.pop_back();
    return out;
}
#pragma GCC diagnostic pop

std::string cell(const FixedColumn &c, const Row &row, const std::string &name) {
    const Metric *m = find_metric(row, c.key);
    const double v = m ? m->value : 0;
    switch (c.text) {
    case CellText::Name:
        return formatted(c.cell_format, name.c_str());
    case CellText::Size:
        return formatted(c.cell_format, size_str(v).c_str());
    case CellText::Count:
        return formatted(c.cell_format, count_str(v).c_str());
    case CellText::Bytes:
        return formatted(c.cell_format, binary_str(v).c_str());
    case CellText::Decimal:
        return formatted(c.cell_format, decimal_str(v).c_str());
    case CellText::Small:
        return formatted(c.cell_format, small_str(v).c_str());
    case CellText::Number:
        break;
    }
    return formatted(c.cell_format, v);
}

} // namespace

std::string fixed_header(const FixedLayout &layout) {
    std::string line;
    for (const FixedColumn &c : layout)
        line += formatted(c.header_format, c.key);
    return line;
}

std::string fixed_row(const FixedLayout &layout, const Row &row, const std::string &name) {
    std::string line;
    for (const FixedColumn &c : layout)
        line += cell(c, row, name);
    return line;
}

} // namespace cmdbench

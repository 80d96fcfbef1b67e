// Tables laid out column by column with printf formats, for rows whose
// metrics follow a known tool's table: the console table prints such a run's
// leading columns this way (then its other metrics generically), and a front
// end prints its own table with the same layout.
#pragma once
#include "cmdbench/report/result.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cmdbench {

// How a cell's value becomes text before its format is applied.
enum class CellText {
    Name,   // the row's name
    Size,   // size_str: 64, 4k, 1.5m
    Count,  // count_str: 1, 100k
    Number, // the value itself, formatted by cell_format
    // cmdbench's own number rules (report_format.hpp), as text:
    Bytes,   // binary_str: 64, 4Ki, 12.2Mi
    Decimal, // decimal_str: 2240, 22.5k
    Small    // small_str: 0.32, 0.0031
};

struct FixedColumn {
    const char *key; // metric key, and the header's text
    uint32_t unit;   // enum cmdbench_unit; unused for the name column
    CellText text;
    const char *header_format; // printf format of the header's text
    const char *cell_format;   // printf format of the cell: a string, or a double for Number
};

// A table's columns, the row name's first.
using FixedLayout = std::vector<FixedColumn>;

// The layout of rstream's table (rdma-core), which the stream plugin's rows
// reproduce, with rstream's number formats: what `cmdbench rstream` prints.
const FixedLayout &rstream_layout();
// rstream's columns and widths with cmdbench's number rules (rounded counts,
// Ki/Mi bytes, significant digits): what a run's table prints.
const FixedLayout &rstream_columns_layout();
// Every layout the console table looks for, first match wins.
const std::vector<const FixedLayout *> &fixed_layouts();

std::string fixed_header(const FixedLayout &layout);
// One row as `name`; a metric the row lacks prints as 0.
std::string fixed_row(const FixedLayout &layout, const Row &row, const std::string &name);

} // namespace cmdbench

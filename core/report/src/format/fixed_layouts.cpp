// The fixed-width layouts the console table knows (fixed_columns.hpp).
#include "cmdbench/plugin.h"
#include "cmdbench/report/fixed_columns.hpp"

namespace cmdbench {

// rstream's printf formats: a 74-character header and 72-character rows
// (its time carries an "s", and its last cell is two columns short).
const FixedLayout &rstream_layout() {
    static const FixedLayout layout{
        {"name", 0, CellText::Name, "%-10s", "%-10s"},
        {"bytes", CMDBENCH_UNIT_BYTES, CellText::Size, "%-8s", "%-8s"},
        {"xfers", CMDBENCH_UNIT_COUNT, CellText::Count, "%-8s", "%-8s"},
        {"iters", CMDBENCH_UNIT_COUNT, CellText::Count, "%-8s", "%-8s"},
        {"total", CMDBENCH_UNIT_BYTES, CellText::Size, "%-8s", "%-8s"},
        {"time", CMDBENCH_UNIT_SECONDS, CellText::Number, "%8s ", "%8.2fs"},
        {"Gb/sec", CMDBENCH_UNIT_GBPS, CellText::Number, "%10s", "%10.2f"},
        {"usec/xfer", CMDBENCH_UNIT_USEC, CellText::Number, "%13s", "%11.2f"},
    };
    return layout;
}

// The same widths; rounded counts, binary byte suffixes and significant
// digits (docs/results.md, "Numbers in the table").
const FixedLayout &rstream_columns_layout() {
    static const FixedLayout layout{
        {"name", 0, CellText::Name, "%-10s", "%-10s"},
        {"bytes", CMDBENCH_UNIT_BYTES, CellText::Bytes, "%-8s", "%-8s"},
        {"xfers", CMDBENCH_UNIT_COUNT, CellText::Decimal, "%-8s", "%-8s"},
        {"iters", CMDBENCH_UNIT_COUNT, CellText::Decimal, "%-8s", "%-8s"},
        {"total", CMDBENCH_UNIT_BYTES, CellText::Bytes, "%-8s", "%-8s"},
        {"time", CMDBENCH_UNIT_SECONDS, CellText::Number, "%8s ", "%8.2fs"},
        {"Gb/sec", CMDBENCH_UNIT_GBPS, CellText::Small, "%10s", "%10s"},
        {"usec/xfer", CMDBENCH_UNIT_USEC, CellText::Small, "%13s", "%11s"},
    };
    return layout;
}

const std::vector<const FixedLayout *> &fixed_layouts() {
    static const std::vector<const FixedLayout *> layouts{&rstream_columns_layout()};
    return layouts;
}

} // namespace cmdbench

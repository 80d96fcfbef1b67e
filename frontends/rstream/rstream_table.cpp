// rstream's table layout, reproduced column by column.
#include "rstream_table.hpp"

#include "cmdbench/report/report.hpp"

#include <cstdio>

namespace rstream_frontend {
namespace {

double metric(const cmdbench::Row &row, const char *key) {
    for (const auto &m : row.metrics)
        if (m.key == key) return m.value;
    return 0;
}

} // namespace

std::string table_header() {
    char line[128];
    std::snprintf(line, sizeof(line), "%-10s%-8s%-8s%-8s%-8s%8s %10s%13s\n", "name", "bytes",
                  "xfers", "iters", "total", "time", "Gb/sec", "usec/xfer");
    return line;
}

std::string table_row(const cmdbench::Row &row, const std::string &name) {
    const std::string bytes = cmdbench::size_str(metric(row, "bytes"));
    const std::string xfers = cmdbench::count_str(metric(row, "xfers"));
    const std::string iters = cmdbench::count_str(metric(row, "iters"));
    const std::string total = cmdbench::size_str(metric(row, "total"));
    char line[256];
    std::snprintf(line, sizeof(line), "%-10s%-8s%-8s%-8s%-8s%8.2fs%10.2f%11.2f\n", name.c_str(),
                  bytes.c_str(), xfers.c_str(), iters.c_str(), total.c_str(), metric(row, "time"),
                  metric(row, "Gb/sec"), metric(row, "usec/xfer"));
    return line;
}

} // namespace rstream_frontend

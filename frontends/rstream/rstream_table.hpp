// rstream's result table: a 74-character header and
// 72-character rows, numbers by rstream's size and count rules.
#ifndef CMDBENCH_RSTREAM_TABLE_HPP
#define CMDBENCH_RSTREAM_TABLE_HPP

#include "cmdbench/report/result.hpp"

#include <string>

namespace rstream_frontend {

std::string table_header();
// One row of a pingpong result, named `name` (rstream calls a custom run
// "custom"); missing metrics print as 0.
std::string table_row(const cmdbench::Row &row, const std::string &name);

} // namespace rstream_frontend

#endif

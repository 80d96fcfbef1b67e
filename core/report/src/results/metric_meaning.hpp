// The names a metric's meaning has in results files (docs/results.md).
#pragma once
#include "cmdbench/report/result.hpp"

#include <string>
#include <vector>

namespace cmdbench {

// Names in JSON results: "latency", "lower", ["round_trip", ...]. Codes
// outside the tables read as undeclared / none.
const char *kind_name(uint32_t kind);
uint32_t kind_code(const std::string &name);
const char *better_name(uint32_t better);
uint32_t better_code(const std::string &name);
std::vector<std::string> flag_names(uint32_t flags);
uint32_t flag_code(const std::string &name); // 0 for an unknown name

} // namespace cmdbench

// Reads the `[comparison]` table of a scenario file (scenario.cpp calls it);
// errors are ScenarioErrors with file:line:column, like every scenario key.
#pragma once
#include "cmdbench/report/compare/comparison_settings.hpp"

#include <string>
#include <toml++/toml.h>

namespace cmdbench {

// The [comparison] table of `root`; the defaults when there is none.
ComparisonSettings read_comparison_table(const toml::table &root, const std::string &path);

// The table as TOML text for the effective scenario; "" when not given.
std::string comparison_toml(const ComparisonSettings &c);

} // namespace cmdbench

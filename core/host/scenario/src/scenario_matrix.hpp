// Reads the `[matrix]` table of a scenario file (scenario.cpp calls it);
// errors are ScenarioErrors with file:line:column, like every scenario key.
#pragma once
#include "cmdbench/host/scenario/matrix_spec.hpp"

#include <string>
#include <toml++/toml.h>

namespace cmdbench {

// The [matrix] table of `root`; given = false when there is none.
MatrixSpec read_matrix_table(const toml::table &root, const std::string &path);

} // namespace cmdbench

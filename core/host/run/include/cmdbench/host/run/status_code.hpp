// A run's status as the cmdbench_status code a test returns and RunEnd
// carries between peers, and back.
#pragma once
#include "cmdbench/report/result.hpp"

#include <cmdbench/plugin.h>
#include <cstdint>

namespace cmdbench {

int32_t status_code(RunStatus s);
RunStatus status_from_code(int32_t code);

} // namespace cmdbench

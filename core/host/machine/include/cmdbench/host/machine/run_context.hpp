// The run's context read from this machine (host name, kernel, CPU, load):
// the host reads it and hands it to the report library in a RunContext.
#pragma once
#include "cmdbench/report/result.hpp"

namespace cmdbench {

// Fills hostname, kernel, CPU model/count, start_time and the current
// conditions from this machine.
RunContext collect_context();

} // namespace cmdbench

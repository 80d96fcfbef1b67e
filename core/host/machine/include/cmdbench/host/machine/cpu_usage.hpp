// CPU time of this process around one side of a run, and its form on the
// control channel (whole microseconds, -1 = not measured).
#pragma once
#include "cmdbench/report/result.hpp"

#include <cstdint>

namespace cmdbench {

// User and system CPU time this process has used so far (all its threads).
CpuTime process_cpu_time();

// What was used since `start` (a process_cpu_time() reading).
CpuTime cpu_time_since(const CpuTime &start);

int64_t cpu_seconds_to_us(double seconds); // -1 for a negative (unmeasured) value
double cpu_us_to_seconds(int64_t us);      // -1 for a negative (unmeasured) value

} // namespace cmdbench

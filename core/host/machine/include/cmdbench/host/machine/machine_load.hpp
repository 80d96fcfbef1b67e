// Reading the machine's load for RunConditions: load average, CPU count,
// frequency governor, and how much CPU other processes used during a run.
#pragma once
#include "cmdbench/report/run_conditions.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace cmdbench {

// The three averages of /proc/loadavg text ("0.52 0.58 0.59 1/467 12345").
std::optional<std::array<double, 3>> parse_loadavg(const std::string &text);

// The scaling governors of the CPUs under `cpu_dir` (/sys/devices/system/cpu),
// sorted and joined by ","; "unknown" when no CPU has one.
std::string cpu_governor(const std::string &cpu_dir = "/sys/devices/system/cpu");

// Load average, CPU count and governor now (no foreign share).
RunConditions current_conditions();

// CPU time counters (clock ticks) at one instant: the whole machine's busy
// and total time (/proc/stat), and what this process and its descendants used.
struct CpuSnapshot {
    uint64_t machine_busy = 0;
    uint64_t machine_total = 0;
    uint64_t own_tree = 0;
    bool valid = false;
};
CpuSnapshot take_cpu_snapshot();

// Others' share of the machine's CPU time between two snapshots, in [0, 1];
// nothing when either snapshot failed or no time passed.
std::optional<double> foreign_cpu_share(const CpuSnapshot &before, const CpuSnapshot &after);

} // namespace cmdbench

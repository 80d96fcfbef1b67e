// What else was going on on the machine while a scenario ran: recorded in
// the results (`context` and each run's `conditions`, docs/results.md) so a
// reader can tell a quiet machine from a busy one.
#pragma once
#include <array>
#include <optional>
#include <string>

namespace cmdbench {

struct RunConditions {
    std::optional<std::array<double, 3>> loadavg; // 1, 5, 15 minutes (/proc/loadavg)
    unsigned cpu_count = 0;                       // online CPUs
    std::string cpu_governor;                     // cpufreq governor(s); "unknown" when absent
    // Share of the machine's CPU time (all CPUs) used during the run by
    // processes other than this one and its children (the local server):
    // 0 = idle otherwise, 1 = every CPU busy with others. Runs only.
    std::optional<double> foreign_cpu_share;
    bool measured() const { return cpu_count > 0; }
};

} // namespace cmdbench

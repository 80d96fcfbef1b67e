// The HTML report's counters beside a group's charts (run_counters.hpp):
// each run's non-zero retransmit, error and congestion counters. Internal
// to report_html.cpp.
#pragma once
#include "cmdbench/report/result.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace cmdbench {

// Nothing when no run of `group` has such a counter.
void write_html_counters(std::ostream &out, const std::string &group,
                         const std::vector<const Report *> &reports);

} // namespace cmdbench

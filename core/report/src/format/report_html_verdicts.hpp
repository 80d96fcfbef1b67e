// The HTML report's section on expectations (verdict.hpp): a summary line
// and one table row per verdict. Internal to report_html.cpp.
#pragma once
#include "cmdbench/report/result.hpp"

#include <iosfwd>
#include <vector>

namespace cmdbench {

// Nothing when no run of the reports has expectations.
void write_html_verdicts(std::ostream &out, const std::vector<const Report *> &reports);

} // namespace cmdbench

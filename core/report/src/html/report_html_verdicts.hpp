// The HTML report's section on expectations (verdict.hpp): a summary line
// and one table row per verdict. Internal to report_html.cpp.
#pragma once
#include "cmdbench/report/verdict.hpp"

#include <iosfwd>
#include <vector>

namespace cmdbench {

// Nothing when there are no verdicts.
// Read twice: the summary above the table, then its rows.
void write_html_verdicts(std::ostream &out, const VerdictStream &verdicts);

} // namespace cmdbench

// What every reporter shares: the defaults of the interface, and the whole
// report written in a format chosen at run time.
#include "cmdbench/report/output_format.hpp"
#include "cmdbench/report/report.hpp"

#include <stdexcept>

namespace cmdbench {

void Reporter::run_done(std::ostream &, const RunResult &) {}

void Reporter::finish_comparison(std::ostream &, const Comparison &,
                                 const std::vector<const Report *> &, const VerdictStream &) {
    throw std::logic_error("this output format writes no comparison");
}

void write_report(std::ostream &out, const OutputFormat &format, const Report &report,
                  const Comparison *comparison) {
    reporter_for(format, report)->finish(out, report, comparison);
}

} // namespace cmdbench

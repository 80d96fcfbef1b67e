// One entry for every reporter of a whole Report, chosen by OutputFormat.
#include "cmdbench/report/report.hpp"
#include "cmdbench/report/matrix/report_matrix.hpp"

namespace cmdbench {

void write_report(std::ostream &out, OutputFormat format, const Report &report,
                  const Comparison *comparison) {
    switch (format) {
    case OutputFormat::Json:
        write_json(out, report, comparison);
        return;
    case OutputFormat::Csv:
        write_csv(out, report);
        return;
    case OutputFormat::Table:
        if (report.matrix)
            write_matrix_table(out, report);
        else
            write_table(out, report);
        return;
    }
}

} // namespace cmdbench

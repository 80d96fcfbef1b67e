// The HTML report's "Expectations" section (report_html_verdicts.hpp).
#include "html/report_html_verdicts.hpp"

#include "cmdbench/report/report_format.hpp"
#include "cmdbench/report/svg_plot.hpp"
#include "cmdbench/report/verdict.hpp"

#include <ostream>

namespace cmdbench {
namespace {

using svg::escape;

std::string cell(const std::string &text) {
    return "<td>" + escape(text) + "</td>";
}

std::string number_cell(const std::optional<double> &v) {
    return v ? cell(verdict_number(*v)) : "<td><span class=\"missing\">—</span></td>";
}

} // namespace

void write_html_verdicts(std::ostream &out, const VerdictStream &verdicts) {
    const VerdictTotals totals = total_verdicts(verdicts);
    if (totals.total() == 0) return;
    out << "<h2>Expectations</h2>\n<p class=\"" << (totals.all_held() ? "held" : "banner")
        << "\" id=\"verdict-summary\">" << escape(totals.summary()) << ".</p>\n"
        << "<table class=\"verdicts\">\n<thead><tr><th>verdict</th><th>run</th><th>row</th>"
           "<th>metric</th><th>check</th><th>value</th><th>bound</th><th>detail</th></tr>"
           "</thead>\n<tbody>\n";
    verdicts([&out](const ExpectVerdict &v) {
        const char *cls = v.outcome == Outcome::Pass     ? "better"
                          : v.outcome == Outcome::NotRun ? "missing"
                                                         : "worse";
        std::string run = v.run;
        if (v.repeats > 1) run += " [rep " + std::to_string(v.repeat) + "]";
        out << "<tr class=\"verdict-" << to_string(v.outcome) << "\"><td class=\"" << cls << "\">"
            << escape(outcome_label(v.outcome)) << "</td>" << cell(run) << cell(v.row)
            << cell(v.metric) << cell(v.check) << number_cell(v.value)
            << cell(verdict_number(v.bound)) << cell(verdict_text(v)) << "</tr>\n";
    });
    out << "</tbody>\n</table>\n";
}

} // namespace cmdbench

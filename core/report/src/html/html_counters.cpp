#include "html/html_counters.hpp"

#include "cmdbench/report/svg_plot.hpp"
#include "compare/comparison_samples.hpp"

#include <ostream>

namespace cmdbench {

void write_html_counters(std::ostream &out, const std::string &group,
                         const std::vector<const Report *> &reports) {
    std::string items;
    for (const Report *rep : reports) {
        if (!rep) continue;
        for_each_run(*rep, [&](const RunResult &run) {
            if (run_group(run) != group) return;
            std::string name = run.name;
            if (run.repeats > 1)
                name +=
                    " [rep " + std::to_string(run.repeat) + "/" + std::to_string(run.repeats) + "]";
            for (const std::string &line : counter_lines(run.counters))
                items += "<li>" + svg::escape(name + ": " + line) + "</li>\n";
        });
    }
    if (items.empty()) return;
    out << "<ul class=\"notes counters\">\n" << items << "</ul>\n";
}

} // namespace cmdbench

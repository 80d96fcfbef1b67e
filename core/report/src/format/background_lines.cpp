// The lines a run measured under background traffic shows under its title.
#include "cmdbench/report/report_format.hpp"
#include "run_table.hpp"

namespace cmdbench {

std::vector<std::string> background_lines(const RunResult &run) {
    std::vector<std::string> lines;
    if (!run.background) return lines;
    const BackgroundLoad &b = *run.background;
    std::string line = "under load: " + std::to_string(b.flows) +
                       (b.flows == 1 ? " flow of " : " flows of ") + b.test +
                       (b.transport.empty() ? "" : " over " + b.transport) + " moved ";
    line +=
        b.gbps ? fixed_str(*b.gbps, 3) + " Gb/s" : std::string("? Gb/s (no Gb/sec in its rows)");
    line += b.flows == 1 || !b.gbps ? "" : " (the sum over flows)";
    line += " while this run was measured";
    lines.push_back(std::move(line));
    for (const std::string &note : b.notes)
        lines.push_back("! " + note);
    return lines;
}

} // namespace cmdbench

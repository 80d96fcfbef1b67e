#include "cmdbench/report/matrix/matrix_ranks.hpp"
#include "cmdbench/report/svg_plot.hpp"
#include "matrix/matrix_rank_paths.hpp"

#include <set>

namespace cmdbench {
namespace {

std::set<std::string> software_drivers(const std::vector<RankPaths> &paths) {
    std::set<std::string> out;
    for (const RankPaths &p : paths) {
        size_t from = 0;
        while (from < p.software.size()) {
            const size_t comma = p.software.find(", ", from);
            out.insert(p.software.substr(from, comma - from));
            from = comma == std::string::npos ? p.software.size() : comma + 2;
        }
    }
    return out;
}

std::string ranks_label(const RankPaths &p) {
    return std::string(p.ranks.size() == 1 ? "rank " : "ranks ") + rank_list_text(p.ranks);
}

} // namespace

void write_rank_paths_text(std::ostream &out, const Report &report) {
    const std::vector<RankPaths> paths = matrix_rank_paths(report);
    if (paths.empty()) return;
    out << "data path per rank:\n";
    for (const RankPaths &p : paths) {
        out << "  " << ranks_label(p) << " (" << node_list_text(p.nodes) << "): " << p.devices
            << ", link " << p.rate << ", mtu " << p.mtu << ", cpus " << p.cpus;
        if (!p.software.empty()) out << ", software RDMA (" << p.software << ")";
        out << '\n';
    }
    const std::set<std::string> software = software_drivers(paths);
    if (!software.empty()) out << "! " << software_rdma_notice(software) << '\n';
}

void write_rank_paths_html(std::ostream &out, const Report &report) {
    using svg::escape;
    const std::vector<RankPaths> paths = matrix_rank_paths(report);
    if (paths.empty()) return;
    out << "<h2>Data path per rank</h2>\n";
    const std::set<std::string> software = software_drivers(paths);
    if (!software.empty())
        out << "<p class=\"note\" id=\"software-rdma\"><strong>Software RDMA:</strong> "
            << escape(software_rdma_notice(software)) << ".</p>\n";
    out << "<table class=\"ranks path\">\n<thead><tr><th>ranks</th><th>nodes</th><th>device</th>"
           "<th>link rate</th><th>MTU</th><th>CPUs</th><th>software RDMA</th></tr></thead>\n"
           "<tbody>\n";
    for (const RankPaths &p : paths)
        out << "<tr><td>" << escape(rank_list_text(p.ranks)) << "</td><td>"
            << escape(node_list_text(p.nodes)) << "</td><td>" << escape(p.devices) << "</td><td>"
            << escape(p.rate) << "</td><td>" << escape(p.mtu) << "</td><td>" << escape(p.cpus)
            << "</td><td>" << (p.software.empty() ? "no" : "yes (" + escape(p.software) + ")")
            << "</td></tr>\n";
    out << "</tbody>\n</table>\n";
}

} // namespace cmdbench

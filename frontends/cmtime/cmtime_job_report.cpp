// The job summary of rank 0 (see cmtime_job_report.hpp).
#include "cmtime_job_report.hpp"

#include "cmdbench/report/matrix/matrix_ranks.hpp"

#include <map>
#include <utility>

namespace cmdbench::cmtime_frontend {

std::string format_job_summary(const JobSummary &job) {
    const int size = int(job.nodes.size());
    std::vector<int> servers, clients;
    for (int r = 0; r < size; ++r)
        (r < job.servers ? servers : clients).push_back(r);
    std::string out =
        "cmtime under a launcher (" + job.launcher + "): " + std::to_string(size) + " ranks; " +
        std::to_string(servers.size()) + " server" + (servers.size() == 1 ? "" : "s") + " (rank" +
        (servers.size() == 1 ? " " : "s ") + rank_list_text(servers) + "), " +
        std::to_string(clients.size()) + " client" + (clients.size() == 1 ? "" : "s") + " (rank" +
        (clients.size() == 1 ? " " : "s ") + rank_list_text(clients) + "); -c " +
        std::to_string(job.conns) + " per client-server pair\n";
    // One line per node and address, in order of the first rank there.
    std::vector<std::pair<std::string, std::string>> order;
    std::map<std::pair<std::string, std::string>, std::vector<int>> where;
    for (int r = 0; r < size; ++r) {
        const auto key = std::make_pair(job.nodes[size_t(r)], job.addresses[size_t(r)]);
        if (!where.count(key)) order.push_back(key);
        where[key].push_back(r);
    }
    for (const auto &key : order) {
        const std::vector<int> &ranks = where[key];
        out += "  " + key.first + " (" + key.second + "): rank" + (ranks.size() == 1 ? " " : "s ") +
               rank_list_text(ranks) + "\n";
    }
    return out;
}

nlohmann::json job_json(const JobSummary &job) {
    nlohmann::json ranks = nlohmann::json::array();
    for (size_t r = 0; r < job.nodes.size(); ++r)
        ranks.push_back({{"rank", r},
                         {"node", job.nodes[r]},
                         {"address", job.addresses[r]},
                         {"role", int(r) < job.servers ? "server" : "client"}});
    return {{"launcher", job.launcher},    {"ranks", job.nodes.size()},
            {"servers", job.servers},      {"clients", int(job.nodes.size()) - job.servers},
            {"conns_per_pair", job.conns}, {"per_rank", ranks}};
}

} // namespace cmdbench::cmtime_frontend

#include "cmdbench/host/matrix/start_problems.hpp"

#include "cmdbench/report/matrix/matrix_ranks.hpp"

#include <cstdio>
#include <map>
#include <set>

namespace cmdbench {
namespace {

// Nodes named past this many are counted, not listed: a problem of 1,000
// nodes stays one line.
constexpr size_t kNodesListed = 8;

std::string nodes_text(const std::vector<std::string> &nodes, const std::vector<int> &ranks) {
    std::vector<std::string> distinct;
    std::set<std::string> seen;
    for (int r : ranks)
        if (seen.insert(nodes[size_t(r)]).second) distinct.push_back(nodes[size_t(r)]);
    return (distinct.size() == 1 ? "node " : "nodes ") + node_list_text(distinct, kNodesListed) +
           (distinct.size() > kNodesListed ? " nodes" : "");
}

} // namespace

std::vector<std::string> start_problem_lines(const std::vector<std::string> &nodes,
                                             const std::vector<std::string> &problems) {
    std::vector<std::string> order;
    std::map<std::string, std::vector<int>> ranks_of;
    for (size_t r = 0; r < problems.size() && r < nodes.size(); ++r) {
        if (problems[r].empty()) continue;
        std::string p = problems[r];
        if (p.rfind("cmdbench: ", 0) == 0) p.erase(0, 10);
        auto &ranks = ranks_of[p];
        if (ranks.empty()) order.push_back(p);
        ranks.push_back(int(r));
    }
    std::vector<std::string> out;
    for (const std::string &p : order) {
        const std::vector<int> &ranks = ranks_of[p];
        out.push_back(std::string(ranks.size() == 1 ? "rank " : "ranks ") + rank_list_text(ranks) +
                      " (" + nodes_text(nodes, ranks) + "): " + p);
    }
    return out;
}

bool every_rank_ready(Job &job, const std::string &problem, double timeout_s) {
    // One collective: "NODE\nPROBLEM" (a node name has no newline).
    std::vector<std::string> nodes = job.allgather("start.problem", job.node() + "\n" + problem,
                                                   timeout_s),
                             problems;
    for (std::string &n : nodes) {
        const size_t cut = n.find('\n');
        problems.push_back(cut == std::string::npos ? "" : n.substr(cut + 1));
        if (cut != std::string::npos) n.erase(cut);
    }
    const std::vector<std::string> lines = start_problem_lines(nodes, problems);
    if (job.rank() == 0)
        for (const std::string &line : lines)
            std::fprintf(stderr, "cmdbench: %s\n", line.c_str());
    // The others leave only once rank 0 has said it: a launcher that ends
    // the job at the first non-zero exit (mpirun does) would otherwise cut
    // rank 0 short, and nobody would say why the job stopped.
    if (!lines.empty()) job.barrier(timeout_s);
    return lines.empty();
}

} // namespace cmdbench

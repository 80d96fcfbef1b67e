#include "cmdbench/host/machine/rdma_ports.hpp"
#include "cmdbench/host/matrix/job.hpp"
#include "cmdbench/host/matrix/preflight.hpp"
#include "cmdbench/host/run/exit_status.hpp"
#include "cmdbench/report/output_format.hpp"
#include "commands.hpp"

#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <unistd.h>

namespace po = boost::program_options;

namespace cmdbench::cli {
namespace {

po::options_description job_options() {
    po::options_description d("Options of `cmdbench job`");
    d.add_options()("format", po::value<std::string>()->default_value("table"),
                    ("rank 0's output: " + format_names(formats_for(kUseSummary))).c_str())(
        "timeout", po::value<double>()->default_value(30),
        "seconds each collective step may wait for the other ranks, 1-3600")("help,h", "this text");
    return d;
}

struct RankInfo {
    std::string node;
    long pid = 0;
    double init_ms = 0, allgather_ms = 0;
};

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

// The allgathered values are this build's own text: a rank that sends
// something else is a different cmdbench.
RankInfo parse_rank(int rank, const std::string &where, const std::string &timing) {
    RankInfo info;
    std::istringstream w(where), t(timing);
    if (!std::getline(w, info.node) || !(w >> info.pid) ||
        !(t >> info.init_ms >> info.allgather_ms))
        throw JobError("rank " + std::to_string(rank) +
                       " sent an unreadable reply (a different cmdbench version?)");
    return info;
}

// Rank 0: every node's RDMA ports against what most nodes have.
Preflight preflight_of(const std::vector<RankInfo> &ranks, const std::vector<std::string> &ports) {
    std::vector<NodePorts> nodes;
    for (size_t r = 0; r < ranks.size(); ++r) {
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(ports[r]);
        } catch (const nlohmann::json::exception &) {
            throw JobError("rank " + std::to_string(r) +
                           " sent an unreadable list of RDMA ports (a different cmdbench "
                           "version?)");
        }
        nodes.push_back({ranks[r].node, ports_from_json(j)});
    }
    return compare_nodes(nodes);
}

void print_preflight(const Preflight &p, size_t nodes) {
    if (p.majority.empty() && p.findings.empty()) {
        std::printf("RDMA: no device on any node\n");
        return;
    }
    std::printf("RDMA ports (what most of the %zu node%s have):\n", nodes, nodes == 1 ? "" : "s");
    for (const std::string &line : p.majority)
        std::printf("  %s\n", line.c_str());
    if (p.findings.empty()) {
        std::printf("every node has the same RDMA ports\n");
        return;
    }
    std::printf("nodes that differ:\n");
    for (const std::string &line : p.findings)
        std::printf("  %s\n", line.c_str());
}

void print_table(const Job &job, const std::vector<RankInfo> &ranks, double init_max,
                 double gather_max) {
    std::printf("job of %d ranks (%s)\n", job.size(), job.describe().c_str());
    std::printf("%-6s %-24s %s\n", "rank", "node", "pid");
    for (size_t r = 0; r < ranks.size(); ++r)
        std::printf("%-6zu %-24s %ld\n", r, ranks[r].node.c_str(), ranks[r].pid);
    std::printf("wire-up (max over ranks): PMIx_Init %.1f ms, allgather %.1f ms\n", init_max,
                gather_max);
}

void print_json(const Job &job, const std::vector<RankInfo> &ranks, double init_max,
                double gather_max, const std::vector<std::string> &ports, const Preflight &p) {
    nlohmann::json out;
    out["size"] = job.size();
    out["launcher"] = job.describe();
    out["ranks"] = nlohmann::json::array();
    for (size_t r = 0; r < ranks.size(); ++r)
        out["ranks"].push_back({{"rank", r},
                                {"node", ranks[r].node},
                                {"pid", ranks[r].pid},
                                {"init_ms", ranks[r].init_ms},
                                {"allgather_ms", ranks[r].allgather_ms}});
    out["wireup_ms"] = {{"init_max", init_max}, {"allgather_max", gather_max}};
    nlohmann::json rdma = nlohmann::json::array();
    for (size_t r = 0; r < ranks.size(); ++r)
        rdma.push_back(
            {{"rank", r}, {"node", ranks[r].node}, {"ports", nlohmann::json::parse(ports[r])}});
    out["rdma"] = {{"ranks", rdma}, {"majority", p.majority}, {"differences", p.findings}};
    std::cout << out.dump(2) << "\n";
}

int run_job(bool json, double timeout_s) {
    auto start = std::chrono::steady_clock::now();
    std::unique_ptr<Job> job = join_job();
    double init_ms = ms_since(start);
    if (!job) {
        std::fprintf(stderr, "cmdbench job: %s\n", kNoPmixLauncher);
        return kExitUsage;
    }
    // Timed: what every benchmark's wire-up costs (one exchange of addresses).
    auto gather_start = std::chrono::steady_clock::now();
    auto where =
        job->allgather("job.where", job->node() + "\n" + std::to_string(getpid()), timeout_s);
    double gather_ms = ms_since(gather_start);
    std::ostringstream timing;
    timing << init_ms << " " << gather_ms;
    auto timings = job->allgather("job.timing", timing.str(), timeout_s);
    const auto ports = job->allgather("job.rdma", ports_json(local_rdma_ports()).dump(), timeout_s);
    if (job->rank() != 0) return kExitOk;

    std::vector<RankInfo> ranks;
    double init_max = 0, gather_max = 0;
    for (int r = 0; r < job->size(); ++r) {
        ranks.push_back(parse_rank(r, where[r], timings[r]));
        init_max = std::max(init_max, ranks.back().init_ms);
        gather_max = std::max(gather_max, ranks.back().allgather_ms);
    }
    const Preflight preflight = preflight_of(ranks, ports);
    if (json) {
        print_json(*job, ranks, init_max, gather_max, ports, preflight);
    } else {
        print_table(*job, ranks, init_max, gather_max);
        std::set<std::string> nodes;
        for (const RankInfo &r : ranks)
            nodes.insert(r.node);
        print_preflight(preflight, nodes.size());
    }
    if (preflight.findings.empty()) return kExitOk;
    std::fprintf(stderr, "cmdbench job: %zu difference%s from what most nodes have in RDMA ports\n",
                 preflight.findings.size(), preflight.findings.size() == 1 ? "" : "s");
    return kExitRunFailed;
}

int usage_error(const std::string &what) {
    std::fprintf(stderr, "cmdbench job: %s\nTry 'cmdbench job --help'.\n", what.c_str());
    return kExitUsage;
}

} // namespace

void print_job_help(std::ostream &out) {
    out << "Usage: cmdbench job [options]\n\n"
           "Run under a launcher (mpirun -np N cmdbench job, srun --mpi=pmix -n N cmdbench job):\n"
           "every rank joins the job through PMIx, and rank 0 prints each rank's node and pid,\n"
           "the wire-up time, and every node's RDMA ports (state, rate, active MTU, link\n"
           "layer, GIDs) against what most nodes have. The first check on a cluster\n"
           "(docs/cluster.md).\n"
           "Exit status: 0 all ranks joined and every node has the same RDMA ports; 1 a node's\n"
           "ports differ (each difference named); 2 bad option, no launcher, or the job could\n"
           "not be joined.\n\n"
        << job_options();
}

int cmd_job(const std::vector<std::string> &args) {
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(args).options(job_options()).run(), vm);
        po::notify(vm);
    } catch (const po::error &e) {
        return usage_error(e.what());
    }
    if (vm.count("help")) {
        print_job_help(std::cout);
        return kExitOk;
    }
    bool json = false; // job's document is its own: a table or JSON
    try {
        json = &parse_output_format(vm["format"].as<std::string>(), formats_for(kUseSummary)) ==
               &format_named("json");
    } catch (const std::invalid_argument &e) {
        return usage_error(e.what());
    }
    double timeout_s = vm["timeout"].as<double>();
    if (!(timeout_s >= 1 && timeout_s <= 3600))
        return usage_error("--timeout must be 1-3600 seconds");
    try {
        return run_job(json, timeout_s);
    } catch (const JobError &e) {
        std::fprintf(stderr, "cmdbench job: %s\n", e.what());
        return kExitUsage;
    }
}

} // namespace cmdbench::cli

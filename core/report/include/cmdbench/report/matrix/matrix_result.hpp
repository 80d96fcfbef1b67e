// What a matrix run adds to results (docs/matrix.md): the ranks of the job
// and, per run, the pair that measured it. Absent in single-pair mode.
#pragma once
#include <string>
#include <vector>

namespace cmdbench {

// The pair a result of a matrix run belongs to: the client rank ran the
// test against the server rank's server.
struct RunPair {
    int client = 0;
    int server = 0;
    std::string client_node, server_node;
    unsigned round = 0; // 1-based round of the schedule it ran in
};

struct MatrixRank {
    int rank = 0;
    std::string node;    // as the launcher names it
    std::string address; // "host:port" of the rank's server
};

struct MatrixInfo {
    std::string pattern; // "all-pairs", "ring", "one-to-all", "bisection"
    bool one_pair_at_a_time = false;
    unsigned rounds = 0;  // rounds of the schedule, per run and repeat
    std::string launcher; // Job::describe()
    // How many of each run's slowest links the reports list ([matrix]
    // worst_links).
    unsigned worst_links = kDefaultWorstLinks;
    static constexpr unsigned kDefaultWorstLinks = 5;
    static constexpr unsigned kMaxWorstLinks = 1000;
    std::vector<MatrixRank> ranks;
};

} // namespace cmdbench

// A perftest tool's command line, parsed and range-checked, plus cmdbench's
// additions (-o, --report, --timeout).
#pragma once
#include "cmdbench/base/usage_error.hpp"
#include "perftest_tools.hpp"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace cmdbench::perftest_frontend {

struct Options {
    const Tool *tool = nullptr;
    std::string server; // the positional HOST: this side is the client
    std::string device; // -d
    int64_t ib_port = 1;
    int64_t gid_index = -1;
    std::vector<int64_t> sizes; // -s, or -a's 2 .. 2^23
    int64_t iterations = 0;
    double duration = 0; // -D seconds; 0 = iterations
    int64_t qps = 1;
    bool bidirectional = false;
    bool events = false;
    bool rdma_cm = false;
    std::string connection = "RC"; // -c
    int64_t inline_size = -1;      // -1: the tool's default
    int64_t tx_depth = 128;
    int64_t cq_mod = 0; // 0: perftest's rule by size
    int64_t rx_depth = 512;
    int64_t mtu = 0;
    int64_t sl = 0;
    int64_t traffic_class = 0;
    int64_t post_list = 1;
    std::string atomic_type = "FETCH_AND_ADD"; // -A
    std::string source_ip;
    bool report_gbits = false;
    bool no_peak = false;
    bool run_infinitely = false;
    std::string output; // --output: "", "bandwidth", "message_rate", "latency"
    int port = 18515;
    bool help = false;
    bool version = false;
    // cmdbench additions
    std::string results_file;    // -o FILE: cmdbench's results JSON
    std::string report_file;     // --report FILE: the HTML page
    double timeout_s = 0;        // --timeout; 0: the default (options_timeout)
    std::set<std::string> given; // long names of the options on the command line
    bool client() const { return !server.empty(); }
};

using cmdbench::UsageError;

// Throws UsageError naming the option and its range, or the option
// cmdbench does not take ("-O/--dualport is not supported by cmdbench
// ib_write_bw").
Options parse_options(const Tool &tool, int argc, char **argv);

// The run's bound: --timeout, else 3600 s (a day with --run_infinitely).
double run_timeout(const Options &o);

// The tool's usage, in perftest's form, with cmdbench's additions.
std::string usage_text(const Tool &tool);

} // namespace cmdbench::perftest_frontend

// The tool's usage: perftest's form, the options cmdbench takes for this
// tool, and cmdbench's additions.
#include "perftest_options.hpp"
#include "perftest_values.hpp"

#include <map>

namespace cmdbench::perftest_frontend {
namespace {

const std::map<std::string, const char *> &help_lines() {
    static const std::map<std::string, const char *> m = {
        {"all", "Run sizes from 2 till 2^23"},
        {"atomic_type", "FETCH_AND_ADD (default) or CMP_AND_SWAP"},
        {"bidirectional", "Measure bidirectional bandwidth (default unidirectional)"},
        {"connection", "Connection type RC (default); UC for send and write; UD for send"},
        {"ib-dev", "Use IB device <dev> (verbs key device)"},
        {"duration", "Run test for a customized period of seconds (verbs-bw key duration)"},
        {"events", "Sleep on CQ events (default poll)"},
        {"CPU-freq", "Accepted; cmdbench times with the system clock, so it never warns "
                     "about the CPU frequency"},
        {"help", "Show this help screen."},
        {"ib-port", "Use port <port> of IB device (default 1)"},
        {"inline_size", "Max size of message to be sent in inline"},
        {"post_list", "Post list of send WQEs of <list size> size"},
        {"mtu", "MTU size: 256 - 4096 (default port mtu)"},
        {"iters", "Number of exchanges (at least 5; default as perftest's tool)"},
        {"noPeak", "Cancel peak-bw calculation (BW peak printed as 0.00)"},
        {"port", "Listen on/connect to port <port> (default 18515)"},
        {"qp", "Num of qp's (default 1)"},
        {"cq-mod", "Generate Cqe only after <cq-mod> completion"},
        {"rx-depth", "Rx queue size (default 512)"},
        {"rdma_cm", "Connect QPs with rdma_cm and run test on those QPs"},
        {"size", "Size of message to exchange"},
        {"sl", "SL (default 0)"},
        {"tx-depth", "Size of tx queue (default 128)"},
        {"version", "Display version number"},
        {"gid-index", "Test uses GID with GID index"},
        {"output", "bandwidth, message_rate or latency: print that figure only"},
        {"report_gbits", "Report Max/Average BW of test in Gbit/sec (instead of MiB/sec)"},
        {"run_infinitely", "Run test forever, print results every <duration> seconds"},
        {"source_ip", "Source IP of the interface used for connection establishment"},
        {"tclass", "Set the Traffic Class in GRH (if GRH is in use)"},
    };
    return m;
}

} // namespace

std::string usage_text(const Tool &tool) {
    const std::string name = std::string("cmdbench ") + tool.name;
    std::string out = "Usage:\n  " + name +
                      "            start a server and wait for connection\n  " + name +
                      " <host>     connect to server at <host>\n\nOptions:\n";
    for (const OptionSpec &s : option_specs()) {
        if (!(s.tools & tool.bit) || s.support != Support::Taken) continue;
        const auto it = help_lines().find(s.long_name);
        out += "  " + option_name(s) + (s.has_arg ? "=<value>" : "") + "  " +
               (it == help_lines().end() ? "" : it->second) + "\n";
    }
    out += "\ncmdbench additions:\n"
           "  -o FILE          also write cmdbench's results (JSON for *.json; --outs stays "
           "perftest's, refused)\n"
           "  --report FILE    also write cmdbench's HTML report\n"
           "  --timeout S      bound the run (default 3600 s, 86400 with --run_infinitely) and "
           "the server's wait for a client (default: forever, as perftest; Ctrl-C ends it)\n"
           "\nOther perftest options are refused by name. See docs/perftest.md.\n";
    return out;
}

} // namespace cmdbench::perftest_frontend

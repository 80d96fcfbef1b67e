// Parsing and validation of cmtime's options (see cmtime_options.hpp).
// Upstream parses numbers with atoi and checks almost nothing; the ranges
// here are cmdbench's own (README, "Where cmdbench differs from cmtime on
// purpose").
#include "cmtime_options.hpp"

#include "cmdbench/report/output_format.hpp"

#include <cerrno>
#include <cstdlib>
#include <getopt.h>

namespace cmdbench::cmtime_frontend {
namespace {

constexpr int64_t kMaxQpn = (1 << 24) - 1;
constexpr int64_t kMaxPending = 1000000; // as -c and cm-steps' max_pending

int64_t number(const char *opt, const char *text, int64_t lo, int64_t hi,
               const char *context = "") {
    char *end = nullptr;
    errno = 0;
    const long long v = std::strtoll(text, &end, 10);
    if (errno || end == text || *end != '\0')
        throw UsageError(std::string(opt) + " must be an integer in [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "]" + context + ", got '" + text + "'");
    if (v < lo || v > hi)
        throw UsageError(std::string(opt) + " must be in [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "]" + context + ", got " + std::to_string(v));
    return v;
}

// The options that take a number in a range and only store it.
struct NumberOption {
    int code; // getopt's
    const char *name;
    int64_t lo, hi;
    void (*store)(Options &, int64_t);
};

const NumberOption kNumberOptions[] = {
    {'c', "-c", 1, 1000000, [](Options &o, int64_t v) { o.conns = uint32_t(v); }},
    {'P', "-P", 2, 1024,
     [](Options &o, int64_t v) {
         o.peers = int(v);
         o.peers_given = true;
     }},
    {'n', "-n", 1, 1024, [](Options &o, int64_t v) { o.engine.threads = unsigned(v); }},
    {'m', "-m", 0, 999999, [](Options &o, int64_t v) { o.mimic_us = v; }},
    {'r', "-r", 0, 1000, [](Options &o, int64_t v) { o.engine.retries = int(v); }},
    {'t', "-t", 1, 3600000, [](Options &o, int64_t v) { o.engine.timeout_ms = int(v); }},
    {'T', "--timeout", 1, 86400, [](Options &o, int64_t v) { o.wait_s = int(v); }},
    {'M', "--max-pending", 0, kMaxPending,
     [](Options &o, int64_t v) { o.engine.max_pending = uint64_t(v); }},
};

// True when `c` is one of kNumberOptions (its value checked and stored).
bool take_number(Options &o, int c, const char *text) {
    for (const NumberOption &n : kNumberOptions)
        if (n.code == c) {
            n.store(o, number(n.name, text, n.lo, n.hi));
            return true;
        }
    return false;
}

// What the checks after the last option need to know of the command line.
struct Given {
    bool b = false, B = false, q = false;
    std::string q_text; // -q is checked last: its range message depends on -m
};

void take_format(Options &o, const char *text) {
    try {
        o.json =
            &cmdbench::parse_output_format(text, cmdbench::formats_for(cmdbench::kUseSummary)) ==
            &cmdbench::format_named("json");
    } catch (const std::invalid_argument &e) {
        throw UsageError(e.what());
    }
}

// Every option but kNumberOptions.
void take_option(Options &o, Given &given, int c, char **argv) {
    const bool launcher = o.launcher;
    switch (c) {
    case 'C':
        o.controller = optarg;
        if (launcher)
            o.ignored.push_back("-C " + o.controller +
                                " is ignored under a launcher: rank 0 is the controller");
        break;
    case 'b':
    case 'B':
        if (given.b || given.B)
            throw UsageError("give one of -b or -B, once (a bind address or an interface)");
        (c == 'b' ? given.b : given.B) = true;
        (c == 'b' ? o.bind : o.bind_interface) = optarg;
        break;
    case 'L':
        if (launcher)
            throw UsageError("-L cannot pick roles under a launcher (every rank gets the same "
                             "options): use --servers M, ranks 0..M-1 serve and the rest "
                             "connect");
        o.server = true;
        break;
    case 'p':
        o.port = optarg;
        number("-p", optarg, 1, 65535);
        if (launcher)
            o.ignored.push_back("-p " + o.port +
                                " is ignored under a launcher: every listener takes a free "
                                "port and the ranks learn it through the launcher");
        break;
    case 'q':
        given.q = true;
        given.q_text = optarg;
        break;
    case 'S':
        o.sockets = true;
        break;
    case 'F':
        take_format(o, optarg);
        break;
    case 'V':
        if (!launcher)
            throw UsageError("--servers picks roles by rank under a launcher (mpirun, srun "
                             "--mpi=pmix); without one, start each server with -L");
        // The range depends on the job's size: checked once it is known.
        o.servers = int(number("--servers", optarg, 0, 1 << 20));
        break;
    case 'h':
        throw UsageError("");
    default:
        throw UsageError(optopt ? std::string("unknown option or missing value: -") + char(optopt)
                                : std::string("unknown option: ") + argv[optind - 1]);
    }
}

// The rules between options, once all are read.
void check_together(Options &o, const Given &given) {
    if (o.launcher) {
        // -b / -B optional (each rank's default: cmtime_node_address.hpp);
        // -S meshes any number of ranks; -P is checked against the job.
    } else if (o.controller.empty()) {
        throw UsageError("-C controller_address is required");
    } else if (!given.b && !given.B) {
        throw UsageError("one of -b bind_address or -B interface is required");
    }
    if (o.sockets && o.peers != 2 && !o.launcher)
        throw UsageError("-S runs between exactly 2 peers: -P must be 2 with -S, got " +
                         std::to_string(o.peers));
    if (given.q)
        // 0 would mean "real QPs" in the simulated tests (cmtime's quirk).
        o.base_qpn = uint32_t(
            number("-q", given.q_text.c_str(), 1, kMaxQpn, o.mimic_us >= 0 ? " with -m" : ""));
}

} // namespace

std::string usage_text() {
    return "usage: cmdbench cmtime [options]\n"
           "\t -C controller_address (required; the same on every peer)\n"
           "\t[-b bind_address] or [-B bind_interface] (one of them is required)\n"
           "\t[-L]             run as a server (listener)\n"
           "\t[-c connections] per client-server pair (default 100)\n"
           "\t[-P peers]       clients + servers, controller included (default 2)\n"
           "\t[-p port_number] controller port (default 7471)\n"
           "\t[-q base_qpn]    first fake QP number (default 1000)\n"
           "\t[-n num_threads] worker threads (default 1)\n"
           "\t[-m mimic_qp_delay_us] simulate QPs with this delay\n"
           "\t[-r retries]     address/route resolution retries (default 2)\n"
           "\t[-t timeout_ms]  address/route resolution timeout (default 2000)\n"
           "\t[-S]             TCP socket baseline (only with -P 2; a mesh under a launcher)\n"
           "\t[--format " +
           cmdbench::format_names(cmdbench::formats_for(cmdbench::kUseSummary), "|", "|") +
           "] output (json: one document from the controller)\n"
           "\t[--timeout seconds] bound of every wait for a peer (default 300)\n"
           "\t[--max-pending n] client: most connects (disconnects) awaiting the servers'\n"
           "\t                answer at a time; 0 = all at once, as cmtime (default 256 per\n"
           "\t                server)\n"
           "\t[--servers M]   under mpirun / srun --mpi=pmix: ranks 0..M-1 serve, the rest\n"
           "\t                connect (default 1); no -C, -L or -p then, -P = ranks\n";
}

Options parse_options(int argc, char **argv, bool launcher) {
    Options o;
    o.launcher = launcher;
    Given given;
    static const option longs[] = {{"format", required_argument, nullptr, 'F'},
                                   {"timeout", required_argument, nullptr, 'T'},
                                   {"max-pending", required_argument, nullptr, 'M'},
                                   {"servers", required_argument, nullptr, 'V'},
                                   {"help", no_argument, nullptr, 'h'},
                                   {nullptr, 0, nullptr, 0}};
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "C:B:b:Lc:P:p:q:n:m:r:t:S", longs, nullptr)) != -1)
        if (!take_number(o, c, optarg)) take_option(o, given, c, argv);
    if (optind < argc) throw UsageError(std::string("unexpected argument '") + argv[optind] + "'");
    check_together(o, given);
    return o;
}

} // namespace cmdbench::cmtime_frontend

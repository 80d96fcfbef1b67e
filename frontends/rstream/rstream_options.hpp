// rstream's command line, parsed into what the
// pingpong run needs. Numbers are validated (a DEVIATION from rstream's atoi).
#ifndef CMDBENCH_RSTREAM_OPTIONS_HPP
#define CMDBENCH_RSTREAM_OPTIONS_HPP

#include "cmdbench/base/usage_error.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace cmdbench::rstream_frontend {

struct Options {
    std::string server;      // -s: client mode when set
    std::string bind;        // -b
    std::string format;      // -f: "", "ip" or "gid"
    int64_t buffer_size = 0; // -B: 0 = 524288
    int64_t inline_size = 64;
    int64_t iterations = 1;        // -I
    int64_t transfer_count = 1000; // -C
    int64_t transfer_size = 1000;  // -S number
    bool custom = false;           // any of -I, -C, numeric -S
    bool all_sizes = false;        // -S all
    int port = 7471;
    int64_t keepalive = 0;
    bool sockets = false;    // -T s (also -T f)
    bool async = false;      // -T a
    bool blocking = false;   // derived: MSG_DONTWAIT cleared by -T b, set by -T n
    bool fork = false;       // -T f
    bool resolve = false;    // -T r (also -f gid)
    bool verify = false;     // -T v
    double timeout_s = 3600; // --timeout (cmdbench addition)
};

// A bad command line: print `message` (if any) and the usage, exit 1.
using cmdbench::UsageError;

// Throws UsageError. Writes "Warning: unknown address format" to stderr for
// an -f value rstream does not know, as rstream does.
Options parse_options(int argc, char **argv);

// rstream's usage summary (printed on stdout).
std::string usage_text();

// The sizes of the standard suite: the 4 defaults, or all 33 with -S all.
std::vector<int64_t> suite_sizes(bool all);

} // namespace cmdbench::rstream_frontend

#endif

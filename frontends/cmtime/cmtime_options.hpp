// cmtime's command line with cmdbench's validation: every
// bad value is refused with the option and its allowed range.
#pragma once
#include "cmdbench/base/usage_error.hpp"
#include "cmdbench/cmtime/cm_engine.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace cmdbench::cmtime_frontend {

struct Options {
    std::string controller;     // -C (required)
    std::string bind;           // -b
    std::string bind_interface; // -B
    bool server = false;        // -L
    uint32_t conns = 100;       // -c, per client-server pair
    int peers = 2;              // -P
    std::string port = "7471";  // -p
    uint32_t base_qpn = 1000;   // -q
    int64_t mimic_us = -1;      // -m; -1 = off
    bool sockets = false;       // -S
    bool json = false;          // --format json
    int wait_s = 300;           // --timeout: bound of every wait
    // -n (threads), -r (retries), -t (timeout_ms) and --max-pending
    // (cmdbench's, not cmtime's: a client's most connects (disconnects)
    // waiting for the server's answer; 0 = all at once, as cmtime), as the
    // engines take them; the bind address is set once it is known.
    cmtime::EngineConfig engine;
    // Under a launcher (mpirun, srun --mpi=pmix; cmtime_launcher.hpp): every
    // rank gets the same options, so roles go by rank: ranks 0..servers-1
    // serve (--servers; its range, 1 .. ranks-1, is checked against the job).
    bool launcher = false;
    int servers = 1;
    bool peers_given = false; // -P given (under a launcher it must match)
    // Options that mean nothing under a launcher (-C, -p): rank 0 says so.
    std::vector<std::string> ignored;
};

// A usage error: the message (may be empty) then the usage text, exit 1.
using cmdbench::UsageError;

// `launcher`: a launcher started this process (cmdbench::launched_by_pmix()):
// no -C needed, -L refused, --servers allowed.
Options parse_options(int argc, char **argv, bool launcher = false);
std::string usage_text();

} // namespace cmdbench::cmtime_frontend

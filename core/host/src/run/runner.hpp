// `cmdbench run`: the client side of every run in a scenario, against a
// server it starts on loopback or one named on the command line.
#pragma once
#include "cmdbench/host/exit_status.hpp"
#include "cmdbench/host/registry.hpp"
#include "cmdbench/host/scenario.hpp"
#include "cmdbench/report/output_format.hpp"
#include "cmdbench/report/result.hpp"

#include <atomic>
#include <string>
#include <vector>

namespace cmdbench {

struct RunOptions {
    std::string server;                        // "host[:port]"; empty = start one on loopback
    FormatRef format = &format_named("table"); // stdout
    std::string output;                        // -o FILE (format from its name: format_of_path)
    std::string report;                        // --report FILE.html: the comparison as a web page
    bool quiet = false;                        // no progress display
    bool allow_skip = false;                   // skipped runs do not make the exit status non-zero
    std::string token; // proves us to a named server (token_source.hpp); "" = none
};

int run_scenario(const Scenario &scenario, const Registry &registry, RunContext context,
                 const RunOptions &options, const std::atomic<bool> &interrupted);

} // namespace cmdbench

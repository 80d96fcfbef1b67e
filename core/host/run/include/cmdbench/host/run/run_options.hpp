// What the command line says about how a scenario runs and where its
// results go: shared by the single-pair runner and the matrix mode.
#pragma once
#include "cmdbench/host/run/progress_display.hpp"
#include "cmdbench/report/output_format.hpp"

#include <string>

namespace cmdbench {

struct RunOptions {
    std::string server;                        // "host[:port]"; empty = start one on loopback
    FormatRef format = &format_named("table"); // stdout
    std::string output;                        // -o FILE (format from its name: format_of_path)
    std::string report;                        // --report FILE.html: the comparison as a web page
    bool quiet = false;                        // no progress display
    bool allow_skip = false;                   // skipped runs do not make the exit status non-zero
    std::string token; // proves us to a named server (token_source.hpp); "" = none
    // --resume FILE (matrix mode): an earlier results file of the job whose
    // finished pairs are kept instead of run again.
    std::string resume;
    ProgressDisplay *progress = nullptr; // where the runs show how far they are; null = nowhere
};

} // namespace cmdbench

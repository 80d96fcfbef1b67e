#include "cmdbench/host/cli/cli.hpp"
#include "cmdbench/host/run/crash_report.hpp"

#include <csignal>

int main(int argc, char **argv) {
    // A file-size limit (RLIMIT_FSIZE) must fail a write with EFBIG, which is
    // reported and keeps the previous results file, not kill the process.
    std::signal(SIGXFSZ, SIG_IGN);
    // First, so a crash anywhere (plugin code above all) is named, not silent.
    cmdbench::crash_report::install();
    return cmdbench::cli_main(argc, argv);
}

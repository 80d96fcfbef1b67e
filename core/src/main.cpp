#include "cli.hpp"

#include <csignal>

int main(int argc, char **argv) {
    // A file-size limit (RLIMIT_FSIZE) must fail a write with EFBIG, which is
    // reported and keeps the previous results file, not kill the process.
    std::signal(SIGXFSZ, SIG_IGN);
    return cmdbench::cli_main(argc, argv);
}

#include "cli.hpp"
#include "crash_report.hpp"

int main(int argc, char **argv) {
    // First, so a crash anywhere (plugin code above all) is named, not silent.
    cmdbench::crash_report::install();
    return cmdbench::cli_main(argc, argv);
}

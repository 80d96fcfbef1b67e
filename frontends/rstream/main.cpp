// cmdbench-rstream: `cmdbench rstream [rstream options]`.
#include "rstream_options.hpp"
#include "rstream_run.hpp"

#include <cstdio>
#include <exception>

int main(int argc, char **argv) {
    using namespace cmdbench::rstream_frontend;
    Options options;
    try {
        options = parse_options(argc, argv);
    } catch (const UsageError &e) {
        if (*e.what()) std::fprintf(stderr, "cmdbench rstream: %s\n", e.what());
        std::printf("%s", usage_text().c_str());
        return 1;
    }
    try {
        return run_rstream(options);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "cmdbench rstream: %s\n", e.what());
        return 255;
    }
}

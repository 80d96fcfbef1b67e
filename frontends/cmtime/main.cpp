// cmdbench-cmtime: `cmdbench cmtime [cmtime options]`, rdma-core's cmtime
// (controller/mesh generation) on cmdbench's engines and control plane.
#include "cmtime_options.hpp"
#include "cmtime_run.hpp"

#include <cstdio>
#include <exception>

int main(int argc, char **argv) {
    using namespace cmtime_frontend;
    Options options;
    try {
        options = parse_options(argc, argv);
    } catch (const UsageError &e) {
        if (*e.what()) std::fprintf(stderr, "cmdbench cmtime: %s\n", e.what());
        std::printf("%s", usage_text().c_str());
        return 1;
    }
    try {
        return run_cmtime(options);
    } catch (const std::exception &e) {
        std::fflush(stdout);
        std::fprintf(stderr, "cmdbench cmtime: %s\n", e.what());
        return 1;
    }
}

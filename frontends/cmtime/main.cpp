// cmdbench-cmtime: `cmdbench cmtime [cmtime options]`, rdma-core's cmtime
// (controller/mesh generation) on cmdbench's engines and control plane;
// under mpirun / srun --mpi=pmix, the mesh of the launcher's ranks
// (cmtime_launcher.hpp).
#include "cmdbench/host/matrix/job.hpp"
#include "cmtime_launcher.hpp"
#include "cmtime_options.hpp"
#include "cmtime_run.hpp"

#include <cstdio>
#include <exception>
#include <memory>

namespace {

int usage_error(const cmdbench::cmtime_frontend::UsageError &e) {
    if (*e.what()) std::fprintf(stderr, "cmdbench cmtime: %s\n", e.what());
    std::printf("%s", cmdbench::cmtime_frontend::usage_text().c_str());
    return 1;
}

} // namespace

int main(int argc, char **argv) {
    using namespace cmdbench::cmtime_frontend;
    try {
        std::unique_ptr<cmdbench::Job> job;
        if (cmdbench::launched_by_pmix()) job = cmdbench::join_job();
        if (job) {
            Options options;
            try {
                options = parse_options(argc, argv, true);
            } catch (const UsageError &e) {
                return refuse_in_job(*job, e.what(), true);
            }
            return run_cmtime_launched(options, *job);
        }
        Options options;
        try {
            options = parse_options(argc, argv);
        } catch (const UsageError &e) {
            return usage_error(e);
        }
        return run_cmtime(options);
    } catch (const std::exception &e) {
        std::fflush(stdout);
        std::fprintf(stderr, "cmdbench cmtime: %s\n", e.what());
        return 1;
    }
}

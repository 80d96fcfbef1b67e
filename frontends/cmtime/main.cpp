// cmdbench-cmtime: `cmdbench cmtime [cmtime options]`, rdma-core's cmtime
// (controller/mesh generation) on cmdbench's engines and control plane;
// under mpirun / srun --mpi=pmix, the mesh of the launcher's ranks.
#include "cmtime_launcher.hpp"
#include "cmtime_options.hpp"
#include "cmtime_run.hpp"
#include "job.hpp"

#include <cstdio>
#include <exception>

int main(int argc, char **argv) {
    using namespace cmtime_frontend;
    const bool launched = cmdbench::launched_by_pmix();
    Options options;
    try {
        options = parse_options(argc, argv, launched);
    } catch (const UsageError &e) {
        // Every rank of a job meets the same error: rank 0 says it.
        if (launched && launcher_rank_hint() > 0) return 1;
        if (*e.what()) std::fprintf(stderr, "cmdbench cmtime: %s\n", e.what());
        std::printf("%s", usage_text().c_str());
        return 1;
    }
    try {
        if (launched) {
            std::unique_ptr<cmdbench::Job> job = cmdbench::join_job();
            if (job) return run_cmtime_launched(options, *job);
            // The environment looked like a launcher's, but there is no job:
            // the classic start, with the classic options.
            options = parse_options(argc, argv, false);
        }
        return run_cmtime(options);
    } catch (const UsageError &e) {
        std::fprintf(stderr, "cmdbench cmtime: %s\n", e.what());
        std::printf("%s", usage_text().c_str());
        return 1;
    } catch (const std::exception &e) {
        std::fflush(stdout);
        std::fprintf(stderr, "cmdbench cmtime: %s\n", e.what());
        return 1;
    }
}

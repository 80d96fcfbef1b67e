// job_probe: drives Job (core/host/matrix/include/cmdbench/host/matrix/job.hpp) under a real
// launcher for the e2e tests, through what `cmdbench job` does not use.
//   job_probe gather        allgather of values with NUL and newline bytes,
//                           then a barrier; each rank prints "rank R/N ok"
//   job_probe abort R       rank R aborts the job; the others wait in a
//                           barrier the launcher must end
//   job_probe late-barrier  rank 1 sleeps 8 s; the others' barrier(2 s) must
//                           fail with a JobError instead of waiting
// Exit 0 on success; 3 on a wrong value; 4 on a JobError (message on stderr).
#include "cmdbench/host/matrix/job.hpp"

#include <cstdio>
#include <string>
#include <unistd.h>

using cmdbench::JobError;

namespace {

std::string value_of(int rank) {
    return std::string("rank\0", 5) + std::to_string(rank) + "\nend";
}

int gather(cmdbench::Job &job) {
    auto values = job.allgather("probe.values", value_of(job.rank()), 30);
    if (static_cast<int>(values.size()) != job.size()) return 3;
    for (int r = 0; r < job.size(); ++r)
        if (values[r] != value_of(r)) {
            std::fprintf(stderr, "rank %d: value of rank %d is wrong\n", job.rank(), r);
            return 3;
        }
    job.barrier(30);
    std::printf("rank %d/%d ok on %s\n", job.rank(), job.size(), job.node().c_str());
    return 0;
}

int abort_from(cmdbench::Job &job, int aborting_rank) {
    if (job.rank() == aborting_rank) {
        job.abort(7, "job_probe: rank " + std::to_string(aborting_rank) + " gives up");
        return 0;
    }
    job.barrier(120);
    std::fprintf(stderr, "rank %d: the barrier ended although a rank aborted\n", job.rank());
    return 3;
}

int late_barrier(cmdbench::Job &job) {
    if (job.rank() == 1) {
        sleep(8);
        return 0;
    }
    job.barrier(2);
    std::fprintf(stderr, "rank %d: barrier returned without rank 1\n", job.rank());
    return 3;
}

} // namespace

int main(int argc, char **argv) {
    std::string mode = argc > 1 ? argv[1] : "";
    try {
        auto job = cmdbench::join_job();
        if (!job) {
            std::fprintf(stderr, "job_probe: no launcher\n");
            return 2;
        }
        if (mode == "gather") return gather(*job);
        if (mode == "abort" && argc > 2) return abort_from(*job, std::stoi(argv[2]));
        if (mode == "late-barrier") return late_barrier(*job);
        std::fprintf(stderr, "usage: job_probe gather | abort RANK | late-barrier\n");
        return 2;
    } catch (const JobError &e) {
        std::fprintf(stderr, "job_probe: JobError: %s\n", e.what());
        return 4;
    }
}

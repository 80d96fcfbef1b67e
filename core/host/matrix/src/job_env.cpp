// launched_by_pmix(): the environment a PMIx launcher gives the processes it
// starts. Shared by the builds with and without PMIx, so both tell "no
// launcher" apart from "a launcher this build cannot talk to". And
// launcher_tasks(): what a launcher without PMIx says, so that its several
// processes are refused rather than run as as many unrelated benchmarks.
#include "cmdbench/host/matrix/job.hpp"

#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

extern char **environ;

namespace cmdbench {

const char *const kNoPmixLauncher =
    "not started by a PMIx launcher: run it under mpirun or srun --mpi=pmix";

namespace {

// A non-negative integer variable; -1 when unset or not a number.
long env_count(const char *name) {
    const char *v = std::getenv(name);
    if (!v || !*v) return -1;
    char *end = nullptr;
    const long n = std::strtol(v, &end, 10);
    return *end == '\0' && n >= 0 ? n : -1;
}

} // namespace

LauncherTasks launcher_tasks() {
    // Slurm's step, not SLURM_NTASKS: a batch script's shell has the
    // allocation's task count but is one process.
    const std::pair<const char *, const char *> kinds[] = {{"SLURM_STEP_NUM_TASKS", "SLURM_PROCID"},
                                                           {"PMI_SIZE", "PMI_RANK"}};
    for (const auto &[count, index] : kinds) {
        const long n = env_count(count);
        if (n < 1) continue;
        const long i = env_count(index);
        return {int(n), i >= 0 && i < n ? int(i) : 0};
    }
    return {};
}

int launcher_rank() {
    for (const char *name : {"PMIX_RANK", "OMPI_COMM_WORLD_RANK"})
        if (const long r = env_count(name); r >= 0) return int(r);
    return launcher_tasks().index;
}

bool launched_by_pmix() {
    if (std::getenv("PMIX_NAMESPACE") || std::getenv("PMIX_RANK")) return true;
    // PMIX_SERVER_URI, PMIX_SERVER_URI2, ..._URI4, ..._URI41: one per
    // protocol version the server speaks.
    static const char kUri[] = "PMIX_SERVER_URI";
    for (char **e = environ; e && *e; ++e)
        if (std::strncmp(*e, kUri, sizeof kUri - 1) == 0) return true;
    return false;
}

} // namespace cmdbench

// A job: cooperating cmdbench processes started together by a launcher
// (Open MPI's mpirun, Slurm's srun --mpi=pmix). Who this process is, how many
// there are, and the few collective steps the matrix and mesh modes need.
// Wire-up goes through the launcher's PMIx server only (no home-made
// rendezvous, no MPI). Collectives cost about a millisecond: they belong
// between measurements, never inside a timed loop.
#pragma once
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace cmdbench {

// A launcher is there but the job cannot be joined or a collective failed
// (message names the step and the PMIx status). Exit code 2 at start-up.
struct JobError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Job {
  public:
    virtual ~Job() = default;
    virtual int rank() const = 0; // 0 .. size()-1
    virtual int size() const = 0;
    // This rank's node as the launcher names it (PMIX_HOSTNAME).
    virtual std::string node() const = 0;
    // "PMIx 4.2.2, namespace 1895104513": for messages and the results' context.
    virtual std::string describe() const = 0;
    // Every rank's `value` for `key`, in rank order; also a barrier. A key is
    // used once per job (callers make them unique). Waits at most timeout_s.
    virtual std::vector<std::string> allgather(const std::string &key, const std::string &value,
                                               double timeout_s) = 0;
    // Returns once every rank got here, at most timeout_s.
    virtual void barrier(double timeout_s) = 0;
    // This rank's `value` for `key`, for another rank to get() after the
    // next allgather (which carries it along); a key is used once.
    virtual void put(const std::string &key, const std::string &value) = 0;
    // Rank `rank`'s put() value for `key`, at most timeout_s.
    virtual std::string get(int rank, const std::string &key, double timeout_s) = 0;
    // Asks the launcher to end one rank (one counted gone that may still be
    // there: stopped, stuck); false when it cannot. Never throws.
    virtual bool kill_rank(int rank) = 0;
    // Asks the launcher to end the whole job (a rank that cannot go on).
    virtual void abort(int status, const std::string &why) = 0;
};

// True when the environment says a PMIx launcher started this process.
bool launched_by_pmix();

// What to do when no PMIx launcher started this process, for messages.
extern const char *const kNoPmixLauncher;

// The processes a launcher says it started together, as it says so without
// PMIx too: `srun -n 2` without --mpi=pmix gives each process
// SLURM_STEP_NUM_TASKS and SLURM_PROCID, MPICH's Hydra PMI_SIZE and
// PMI_RANK. {1, 0} when no launcher says.
struct LauncherTasks {
    int count = 1;
    int index = 0; // this process, 0-based
};
LauncherTasks launcher_tasks();

// This process's index among those its launcher started, from the
// environment alone (PMIX_RANK, Open MPI's OMPI_COMM_WORLD_RANK, or
// launcher_tasks()); 0 when no launcher says. For what every process of a
// job would say alike, before any wire-up: the first says it.
int launcher_rank();

// The job this process belongs to; nullptr when no launcher started it (the
// caller falls back to single-pair mode). Throws JobError when a launcher
// did, but this build has no PMIx or the wire-up fails.
std::unique_ptr<Job> join_job();

} // namespace cmdbench

// What the launcher tests share: the launcher binaries (a missing one fails
// the test with the package to install), mpirun's root permission, and a
// single-node Slurm a test starts and stops.
#pragma once

#include "process.hpp"

#include <string>
#include <vector>

// mpirun as root (only in the child's environment, never globally).
inline const std::vector<std::string> kRootOk = {"OMPI_ALLOW_RUN_AS_ROOT=1",
                                                 "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"};

// `path` if executable; otherwise FAIL naming `package`.
std::string need(const std::string &path, const std::string &package);

std::string mpirun();

// `mpirun --oversubscribe -np n cmd...`
std::vector<std::string> mpirun_np(int n, const std::vector<std::string> &cmd);

// A single-node Slurm under a temp dir (tests/cluster/slurm-start.sh),
// stopped by pid however the test ends. Needs root.
struct Slurm {
    std::string dir;
    Slurm();
    ~Slurm();
    Slurm(const Slurm &) = delete;
    Slurm &operator=(const Slurm &) = delete;
    std::string conf() const { return "SLURM_CONF=" + dir + "/slurm.conf"; }
    void stop();
};

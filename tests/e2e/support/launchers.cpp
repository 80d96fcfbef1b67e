#include "launchers.hpp"

#include <catch2/catch.hpp>
#include <unistd.h>

std::string need(const std::string &path, const std::string &package) {
    if (access(path.c_str(), X_OK) != 0)
        FAIL(path << " not found: install " << package << " (tools/install-deps.sh)");
    return path;
}

std::string mpirun() {
    return need("/usr/bin/mpirun", "openmpi-bin and libpmix-dev");
}

std::vector<std::string> mpirun_np(int n, const std::vector<std::string> &cmd) {
    std::vector<std::string> argv = {mpirun(), "--oversubscribe", "-np", std::to_string(n)};
    argv.insert(argv.end(), cmd.begin(), cmd.end());
    return argv;
}

Slurm::Slurm() : dir(temp_dir() + "/slurm") {
    need("/usr/bin/srun", "slurm-client");
    need("/usr/sbin/slurmctld", "slurmctld");
    need("/usr/sbin/slurmd", "slurmd");
    need("/usr/sbin/munged", "munge");
    if (geteuid() != 0) FAIL("the Slurm tests start slurmd, which needs root");
    const ProcessResult r = run_process({source_path("tests/cluster/slurm-start.sh"), dir}, 120);
    if (r.exit_code != 0) {
        stop();
        FAIL("slurm-start.sh failed (" << r.exit_code << "): " << r.err);
    }
}

Slurm::~Slurm() {
    stop();
}

void Slurm::stop() {
    run_process({source_path("tests/cluster/slurm-stop.sh"), dir}, 90);
}

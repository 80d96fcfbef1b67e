// End to end: cmdbench joins jobs of real launchers through PMIx (`cmdbench
// job`, and core/host/matrix/include/cmdbench/host/matrix/job.hpp through tests/cluster/job_probe):
// mpirun on one node, mpirun across two "nodes" through a fake ssh, srun --mpi=pmix against a
// single-node Slurm the test starts and stops, and no launcher or a broken one (exit 2, a clear
// message, no hang).
#include "launchers.hpp"
#include "process.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <dirent.h>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

std::string job_probe() {
    return std::string(CMDBENCH_BINARY_DIR) + "/bin/job_probe";
}

// Live processes (zombies have no command line) whose argv[0] is `exe`:
// the ranks, not the mpirun whose arguments name them.
int live_processes_of(const std::string &exe) {
    int n = 0;
    DIR *d = opendir("/proc");
    if (!d) return 0;
    while (dirent *e = readdir(d)) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        const std::string cmd = read_file(std::string("/proc/") + e->d_name + "/cmdline");
        if (cmd.compare(0, exe.size() + 1, exe + '\0') == 0) ++n;
    }
    closedir(d);
    return n;
}

std::vector<std::string> with_env(std::vector<std::string> env, const std::string &more) {
    env.push_back(more);
    return env;
}

// rank 0's JSON of `cmdbench job --format json`: n distinct ranks, one job.
nlohmann::json check_job_json(const ProcessResult &r, int n) {
    INFO("exit " << r.exit_code << "\nstdout: " << r.out << "\nstderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    auto j = nlohmann::json::parse(r.out); // only rank 0 prints
    CHECK(j["size"] == n);
    REQUIRE(j["ranks"].size() == static_cast<size_t>(n));
    std::set<long> pids;
    for (int i = 0; i < n; ++i) {
        CHECK(j["ranks"][i]["rank"] == i);
        CHECK(j["ranks"][i]["pid"].get<long>() > 0);
        CHECK(!j["ranks"][i]["node"].get<std::string>().empty());
        pids.insert(j["ranks"][i]["pid"].get<long>());
    }
    CHECK(pids.size() == static_cast<size_t>(n));
    CHECK(j["wireup_ms"]["init_max"].get<double>() > 0);
    CHECK(j["wireup_ms"]["allgather_max"].get<double>() > 0);
    return j;
}

} // namespace

TEST_CASE("mpirun -np 4: four distinct ranks of one job, wire-up timed", "[cluster]") {
    auto r = run_process(
        {mpirun(), "--oversubscribe", "-np", "4", cmdbench_exe(), "job", "--format", "json"}, 120,
        kRootOk);
    auto j = check_job_json(r, 4);
    CHECK(j["launcher"].get<std::string>().find("PMIx") != std::string::npos);

    auto table =
        run_process({mpirun(), "--oversubscribe", "-np", "4", cmdbench_exe(), "job"}, 120, kRootOk);
    INFO("stderr: " << table.err);
    REQUIRE(table.exit_code == 0);
    CHECK(table.out.find("job of 4 ranks") != std::string::npos);
    CHECK(table.out.find("wire-up (max over ranks): PMIx_Init") != std::string::npos);
}

TEST_CASE("mpirun across two nodes through the fake ssh launch agent", "[cluster]") {
    std::string log = temp_dir() + "/fakessh.log";
    auto r = run_process({mpirun(), "--host", "localhost:2,127.0.0.2:2", "--mca", "plm_rsh_agent",
                          source_path("tests/cluster/fakessh.sh"), "-np", "4", cmdbench_exe(),
                          "job", "--format", "json"},
                         120, with_env(kRootOk, "FAKESSH_LOG=" + log));
    auto j = check_job_json(r, 4);
    CHECK(j["ranks"][2]["node"] == "127.0.0.2");
    CHECK(j["ranks"][3]["node"] == "127.0.0.2");
    CHECK(j["ranks"][0]["node"] != "127.0.0.2");
    std::string calls = read_file(log);
    INFO("fakessh log: " << calls);
    CHECK(calls.rfind("127.0.0.2 ", 0) == 0);
    CHECK(calls.find("orted") != std::string::npos);
}

TEST_CASE("Job under mpirun: binary allgather, barrier, a barrier timeout, abort", "[cluster]") {
    auto ok =
        run_process({mpirun(), "--oversubscribe", "-np", "4", job_probe(), "gather"}, 120, kRootOk);
    INFO("stdout: " << ok.out << "\nstderr: " << ok.err);
    CHECK(ok.exit_code == 0);
    for (int r = 0; r < 4; ++r)
        CHECK(ok.out.find("rank " + std::to_string(r) + "/4 ok") != std::string::npos);

    auto late = run_process({mpirun(), "--oversubscribe", "-np", "3", job_probe(), "late-barrier"},
                            120, kRootOk);
    INFO("late-barrier stderr: " << late.err);
    CHECK(late.exit_code == 4);
    CHECK(late.err.find("PMIx_Fence (barrier, timeout 2 s) failed: TIMEOUT") != std::string::npos);

    // The launcher ends the job: the other ranks' 120 s barrier does not
    // return. mpirun 4.1.4 itself sometimes crashes, or hangs for good with
    // its ranks already reaped, while tearing down an aborted job: that is
    // Open MPI's, so the test judges the ranks, not mpirun's own exit.
    const std::string dir = temp_dir();
    std::vector<std::string> argv = {"/usr/bin/env"};
    argv.insert(argv.end(), kRootOk.begin(), kRootOk.end());
    argv.insert(argv.end(), {mpirun(), "--oversubscribe", "-np", "4", job_probe(), "abort", "2"});
    const pid_t job = start_process(argv, dir + "/abort.out", dir + "/abort.err");
    const auto t0 = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::steady_clock::now() - t0; };
    int status = 0;
    bool exited = false;
    bool ranks_seen = false;
    std::chrono::steady_clock::duration ranks_gone_since{};
    while (elapsed() < std::chrono::seconds(60)) {
        if (waitpid(job, &status, WNOHANG) == job) {
            exited = true;
            break;
        }
        if (live_processes_of(job_probe()) > 0) {
            ranks_seen = true;
            ranks_gone_since = elapsed();
        } else if (ranks_seen && elapsed() - ranks_gone_since > std::chrono::seconds(5))
            break; // the ranks have ended; mpirun lingers
        usleep(50000);
    }
    INFO("abort stderr: " << read_file(dir + "/abort.err"));
    CHECK(live_processes_of(job_probe()) == 0);
    if (exited) {
        CHECK(!(WIFEXITED(status) && WEXITSTATUS(status) == 0));
    } else {
        WARN("mpirun did not exit after its ranks ended (Open MPI 4.1.4 teardown): killed");
        kill(-job, SIGKILL);
        waitpid(job, &status, 0);
    }
    CHECK(read_file(dir + "/abort.err").find("barrier ended") == std::string::npos);
}

TEST_CASE("srun -O -n 4 --mpi=pmix against a single-node Slurm", "[cluster][slurm]") {
    Slurm slurm;
    auto r = run_process(
        {"/usr/bin/srun", "-O", "-n", "4", "--mpi=pmix", cmdbench_exe(), "job", "--format", "json"},
        180, {slurm.conf()});
    auto j = check_job_json(r, 4);
    CHECK(j["launcher"].get<std::string>().find("slurm.pmix") != std::string::npos);

    // srun without --mpi=pmix starts no PMIx server: each task says so.
    auto plain =
        run_process({"/usr/bin/srun", "-O", "-n", "1", cmdbench_exe(), "job"}, 180, {slurm.conf()});
    INFO("srun without --mpi=pmix stderr: " << plain.err);
    CHECK(plain.exit_code == 2);
    CHECK(plain.err.find("not started by a PMIx launcher") != std::string::npos);

    std::string pid = read_file(slurm.dir + "/slurmd.pid");
    slurm.stop();
    CHECK(!process_running_with(slurm.dir + "/munge"));
    CHECK(access(("/proc/" + pid.substr(0, pid.find('\n'))).c_str(), F_OK) != 0);
}

TEST_CASE("no launcher: exit 2 with what to do", "[cluster]") {
    auto r = run_process({"/usr/bin/env", "-i", "PATH=/usr/bin:/bin", cmdbench_exe(), "job"}, 30);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find("not started by a PMIx launcher: run it under mpirun or srun --mpi=pmix") !=
          std::string::npos);
}

TEST_CASE("a PMIx environment without a server: exit 2, a clear JobError, no hang", "[cluster]") {
    auto no_server = run_process({"/usr/bin/env", "-i", "PATH=/usr/bin:/bin",
                                  "PMIX_NAMESPACE=bogus", "PMIX_RANK=0", cmdbench_exe(), "job"},
                                 30);
    INFO("stderr: " << no_server.err);
    CHECK(no_server.exit_code == 2);
    CHECK(no_server.err.find("PMIx_Init failed") != std::string::npos);
    CHECK(no_server.err.find("srun --mpi=pmix") != std::string::npos);

    // A server address where nobody listens (port 1).
    auto unreachable =
        run_process({"/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "PMIX_NAMESPACE=1", "PMIX_RANK=0",
                     "PMIX_SERVER_URI4=1.0;tcp4://127.0.0.1:1", cmdbench_exe(), "job"},
                    30);
    INFO("stderr: " << unreachable.err);
    CHECK(unreachable.exit_code == 2);
    CHECK(unreachable.err.find("PMIx_Init failed: UNREACHABLE") != std::string::npos);
}

TEST_CASE("cmdbench job: help and bad options", "[cluster]") {
    auto help = run_process({cmdbench_exe(), "help", "job"}, 30);
    CHECK(help.exit_code == 0);
    CHECK(help.out.find("Usage: cmdbench job") != std::string::npos);
    auto format = run_process({cmdbench_exe(), "job", "--format", "xml"}, 30);
    CHECK(format.exit_code == 2);
    CHECK(format.err.find("--format must be one of table, json (got 'xml')") != std::string::npos);
    auto timeout = run_process({cmdbench_exe(), "job", "--timeout", "0"}, 30);
    CHECK(timeout.exit_code == 2);
    CHECK(timeout.err.find("--timeout must be 1-3600") != std::string::npos);
}

// Matrix mode under the other launch paths: srun --mpi=pmix against a
// single-node Slurm, and mpirun across two "nodes" (a fake ssh agent), where
// a loopback address cannot work and must be refused before any run.
#include "launchers.hpp"
#include "process.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <unistd.h>

using nlohmann::json;

namespace {

std::string write_scenario(const std::string &dir, const std::string &address) {
    const std::string path = dir + "/matrix.toml";
    std::ofstream(path) << "[matrix]\naddress = \"" << address
                        << "\"\n\n[[run]]\nname = \"latency\"\ntest = \"pingpong\"\n"
                           "transport = \"tcp\"\nsizes = [64]\niterations = 100\n"
                           "transfer_count = 1\ntimeout = 60\n";
    return path;
}

} // namespace

TEST_CASE("srun -n 3 --mpi=pmix: an all-pairs matrix of 6 pairs, like mpirun's", "[cluster]") {
    Slurm slurm;
    const std::string dir = temp_dir(), out = dir + "/srun.json";
    const std::string toml = write_scenario(dir, "127.0.0.1");
    const ProcessResult r = run_process(
        {"/usr/bin/srun", "-O", "-n", "3", "--mpi=pmix", cmdbench_exe(), "run", toml, "-o", out},
        240, {slurm.conf()});
    INFO("exit " << r.exit_code << "\nstdout: " << r.out << "\nstderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    const json doc = json::parse(read_file(out));
    CHECK(doc["schema_version"] == 4);
    CHECK(doc["matrix"]["ranks"].size() == 3);
    std::set<std::pair<int, int>> pairs;
    for (const json &run : doc["runs"]) {
        CHECK(run["status"] == "ok");
        REQUIRE(run["rows"].size() == 1);
        CHECK(run["rows"][0]["metrics"]["usec/xfer"]["value"].get<double>() > 0);
        CHECK(run["rows"][0]["histograms"]["rtt"]["count"] == 100);
        pairs.insert({run["pair"]["client"].get<int>(), run["pair"]["server"].get<int>()});
    }
    CHECK(pairs.size() == 6);
    // Rank 0 alone prints the matrix table.
    CHECK(r.out.find("matrix: all-pairs, 3 ranks") != std::string::npos);
    CHECK(r.out.rfind("matrix: all-pairs") == r.out.find("matrix: all-pairs"));

    // Without --mpi=pmix the tasks cannot find each other: refused, as
    // `cmdbench job` refuses it, said once, and nothing runs or is written.
    const std::string plain_out = dir + "/plain.json";
    const ProcessResult plain =
        run_process({"/usr/bin/srun", "-n", "2", cmdbench_exe(), "run", toml, "-o", plain_out}, 180,
                    {slurm.conf()});
    INFO("srun without --mpi=pmix: exit " << plain.exit_code << "\nstdout: " << plain.out
                                          << "\nstderr: " << plain.err);
    CHECK(plain.exit_code == 2);
    const std::string fix = "run it under mpirun or srun --mpi=pmix";
    CHECK(plain.err.find("has [matrix], but its 2 processes were not started by a PMIx launcher: " +
                         fix) != std::string::npos);
    CHECK(plain.err.find(fix) == plain.err.rfind(fix));
    CHECK(plain.out.find("==") == std::string::npos);
    CHECK(access(plain_out.c_str(), F_OK) != 0);
}

TEST_CASE("mpirun across two nodes: a loopback address is refused before any run", "[cluster]") {
    const std::string dir = temp_dir(), out = dir + "/two-nodes.json";
    const std::string toml = write_scenario(dir, "127.0.0.1");
    std::vector<std::string> argv = {mpirun(),
                                     "--host",
                                     "localhost:2,127.0.0.2:2",
                                     "--mca",
                                     "plm_rsh_agent",
                                     source_path("tests/cluster/fakessh.sh"),
                                     "-np",
                                     "4",
                                     cmdbench_exe(),
                                     "run",
                                     toml,
                                     "-o",
                                     out};
    const ProcessResult r = run_process(argv, 120, kRootOk);
    INFO("exit " << r.exit_code << "\nstdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("cmdbench: matrix: rank 2 (127.0.0.2) would serve on the loopback address "
                     "127.0.0.1:") != std::string::npos);
    CHECK(r.err.find("but the job spans 2 nodes: set [matrix] address") != std::string::npos);
    CHECK(r.seconds < wall_bound(60));
    CHECK(r.out.find("matrix:") == std::string::npos);
    CHECK_FALSE(process_running_with(toml));
}

TEST_CASE("mpirun interrupted (SIGINT): the results file still has every pair", "[cluster]") {
    const std::string dir = temp_dir(), out = dir + "/interrupted.json";
    const std::string toml = dir + "/long.toml";
    std::ofstream(toml) << "[matrix]\naddress = \"127.0.0.1\"\n\n[[run]]\nname = \"latency\"\n"
                           "test = \"pingpong\"\ntransport = \"tcp\"\nsizes = [64]\n"
                           "iterations = 5000000\ntransfer_count = 1\ntimeout = 120\n";
    // Each rank runs under a shell that records its exit status: mpirun's
    // own status does not say it (Open MPI exits 1 once interrupted). The
    // shell outlives mpirun's SIGTERM to the process group by waiting on.
    const std::string statuses = dir + "/statuses";
    const std::string wrapper = dir + "/rank.sh";
    std::ofstream(wrapper) << "trap : TERM\n\"" << cmdbench_exe() << "\" run " << toml << " -o "
                           << out << " &\npid=$!\n"
                           << "while kill -0 $pid 2>/dev/null; do wait $pid; rc=$?; done\n"
                           << "echo \"$rc\" >> " << statuses << "\n";
    std::vector<std::string> argv = {"/usr/bin/env"};
    argv.insert(argv.end(), kRootOk.begin(), kRootOk.end());
    // Open MPI sends the ranks SIGTERM, then SIGKILL
    // odls_base_sigkill_timeout (1 s) later: enough for rank 0 to gather and
    // write the results, but not always under TSan. 10 s, as docs/matrix.md
    // advises.
    for (const std::string &a :
         mpirun_np(3, {"--mca", "odls_base_sigkill_timeout", "10", "/bin/bash", wrapper}))
        argv.push_back(a);
    const pid_t job = start_process(argv, dir + "/int.out", dir + "/int.err");
    // Interrupt once the first round is under way.
    for (int i = 0; i < 600 && read_file(dir + "/int.err").find("run 1/1") == std::string::npos;
         ++i)
        usleep(50000);
    sleep(2);
    REQUIRE(kill(job, SIGINT) == 0);
    const int code = wait_process(job, 60);
    INFO("exit " << code << "\nstdout: " << read_file(dir + "/int.out")
                 << "\nstderr: " << read_file(dir + "/int.err"));
    CHECK(code != -1); // -1: mpirun still running after 60 s
    // Open MPI's status for a job it was told to end, not the ranks': every
    // rank exits 130 (docs/matrix.md).
    CHECK(code == 1);
    for (int i = 0; i < 50 && read_file(statuses).size() < 12; ++i)
        usleep(100000);
    CHECK(read_file(statuses) == "130\n130\n130\n");
    const json doc = json::parse(read_file(out));
    std::set<std::pair<int, int>> pairs;
    int interrupted = 0;
    for (const json &run : doc["runs"]) {
        CHECK(run["status"] != "ok");
        if (run["status"] == "interrupted") ++interrupted;
        pairs.insert({run["pair"]["client"].get<int>(), run["pair"]["server"].get<int>()});
    }
    CHECK(pairs.size() == 6);
    CHECK(interrupted >= 5); // the pair in flight may end as failed: its server went first
    sleep(1);
    CHECK_FALSE(process_running_with(toml));
}

// `cmdbench cmtime` under a real launcher: Open MPI's mpirun starts the
// ranks, they find each other through PMIx, rank 0 prints the mesh's
// tables. Sockets mode (-S), so it runs on any host; the RDMA version runs
// in the lab (tests/lab/guest.d/55-cmtime-launcher.sh).
#include "launchers.hpp"
#include "process.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <dirent.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using nlohmann::json;

namespace {

// `mpirun -np N cmdbench cmtime ARGS` as root on a small host (the two
// variables allow root, --oversubscribe more ranks than cores). `mpi`: more
// mpirun options.
std::vector<std::string> launch(int ranks, const std::vector<std::string> &args,
                                const std::vector<std::string> &mpi = {}) {
    std::vector<std::string> argv = {"/usr/bin/env",
                                     "OMPI_ALLOW_RUN_AS_ROOT=1",
                                     "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1",
                                     mpirun(),
                                     "--oversubscribe",
                                     "-np",
                                     std::to_string(ranks)};
    argv.insert(argv.end(), mpi.begin(), mpi.end());
    argv.push_back(cmdbench_exe());
    argv.push_back("cmtime");
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
}

// As launch, with rank `stop` stopping itself (SIGSTOP) once the mesh is
// wired: the front end built with the tests' fault (tests/cluster/cmtime-faults).
std::vector<std::string> launch_stopping(int ranks, int stop, const std::vector<std::string> &args,
                                         std::vector<std::string> mpi = {}) {
    mpi.insert(mpi.end(), {"-x", "CMDBENCH_CMTIME_TEST_STOP_RANK=" + std::to_string(stop)});
    std::vector<std::string> argv = launch(ranks, args, mpi);
    const auto front = std::find(argv.begin(), argv.end(), cmdbench_exe());
    *front = CMDBENCH_CMTIME_FAULTS_EXE;
    argv.erase(front + 1); // "cmtime": the copy is the front end itself
    return argv;
}

int count(const std::string &text, const std::string &what) {
    int n = 0;
    for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1))
        ++n;
    return n;
}

std::string hostname() {
    char name[256] = "";
    gethostname(name, sizeof name - 1);
    return name;
}

// The row of `step` in the table that follows `heading` in `out`.
std::vector<unsigned long long> row(const std::string &out, const std::string &heading,
                                    const std::string &step) {
    const size_t at = out.find(heading);
    if (at == std::string::npos) return {};
    const size_t line = out.find("\n" + step + " ", at);
    if (line == std::string::npos) return {};
    std::vector<unsigned long long> v(8);
    std::istringstream in(out.substr(line + 1 + 13, 120));
    for (auto &x : v)
        in >> x;
    return v; // avg/conn total us/conn sum max min p50 p99
}

// The pid of the cmdbench process that is rank `rank` of a job tagged with
// `tag` (an environment variable only this test's job has), or -1.
pid_t rank_pid(int rank, const std::string &tag) {
    pid_t found = -1;
    DIR *d = opendir("/proc");
    while (dirent *e = d ? readdir(d) : nullptr) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        std::string env = read_file(std::string("/proc/") + e->d_name + "/environ");
        for (auto &c : env)
            if (c == '\0') c = '\n';
        env = "\n" + env;
        if (env.find("\n" + tag + "\n") != std::string::npos &&
            env.find("\nPMIX_RANK=" + std::to_string(rank) + "\n") != std::string::npos &&
            read_file(std::string("/proc/") + e->d_name + "/comm").rfind("cmdbench", 0) == 0)
            found = pid_t(std::stol(e->d_name));
    }
    if (d) closedir(d);
    return found;
}

char process_state(pid_t pid) {
    const std::string fields = proc_stat_fields(pid);
    return fields.empty() ? '?' : fields[0];
}

} // namespace

TEST_CASE("cmtime under mpirun: 2 clients x 2 servers x 50 over TCP, rank 0 prints the mesh once") {
    auto r = run_process(launch(4, {"-S", "--servers", "2", "-c", "50", "--timeout", "60"}), 120);
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(count(r.out, "cmtime under a launcher (") == 1);
    CHECK_THAT(r.out, Catch::Contains("4 ranks; 2 servers (ranks 0-1), 2 clients (ranks 2-3); "
                                      "-c 50 per client-server pair"));
    CHECK_THAT(r.out, Catch::Contains("  " + hostname() + " ("));
    // 2 clients x 2 servers x 50: 200 connections, counted on both sides.
    CHECK(count(r.out, "Mesh sockets test: 200 client connections of 2 clients\ncm_conn"
                       "               200\n") == 1);
    CHECK(count(r.out, "Mesh sockets test: 200 accepted connections of 2 servers\ncm_conn"
                       "               200\n") == 1);
    // Only the aggregated tables: no rank prints its own.
    CHECK(count(r.out, "step             avg/conn") == 2);
    CHECK(count(r.out, "Running as OOB root") == 0);
    const auto connect = row(r.out, "200 client connections", "cm connect");
    REQUIRE(connect.size() == 8);
    CHECK(connect[1] > 0);                 // total
    CHECK(connect[3] >= connect[4]);       // sum >= max
    CHECK(connect[0] == connect[1] / 200); // avg/conn = total / 200
    CHECK(connect[5] <= connect[6]);       // min <= p50
    const auto accepted = row(r.out, "200 accepted connections", "cm connect");
    REQUIRE(accepted.size() == 8);
    CHECK(accepted[1] > 0);
}

TEST_CASE("cmtime under mpirun: --format json, one document from rank 0 with the job") {
    auto r = run_process(
        launch(4, {"-S", "--servers", "2", "-c", "50", "--timeout", "60", "--format", "json"}),
        120);
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE(r.exit_code == 0);
    const json doc = json::parse(r.out); // one document, nothing else on stdout
    CHECK(doc.at("schema") == "cmdbench-cmtime");
    CHECK(doc.at("peers") == 4);
    const json &job = doc.at("job");
    CHECK(job.at("ranks") == 4);
    CHECK(job.at("servers") == 2);
    CHECK(job.at("clients") == 2);
    CHECK(job.at("conns_per_pair") == 50);
    CHECK_THAT(job.at("launcher").get<std::string>(), Catch::Contains("PMIx"));
    REQUIRE(job.at("per_rank").size() == 4);
    for (int i = 0; i < 4; ++i) {
        const json &rank = job.at("per_rank").at(size_t(i));
        CHECK(rank.at("rank") == i);
        CHECK(rank.at("node") == hostname());
        CHECK(rank.at("role") == (i < 2 ? "server" : "client"));
        CHECK_FALSE(rank.at("address").get<std::string>().empty());
    }
    REQUIRE(doc.at("tests").size() == 1);
    const json &t = doc.at("tests").at(0);
    CHECK(t.at("name") == "sockets");
    REQUIRE(t.at("per_peer").size() == 4);
    for (int i = 0; i < 4; ++i) {
        const json &p = t.at("per_peer").at(size_t(i));
        CHECK(p.at("index") == i); // peer index = rank
        CHECK(p.at("role") == (i < 2 ? "server" : "client"));
        CHECK(p.at("report").at("conns") == 100); // 50 to or from each of 2 peers
    }
    for (const char *side : {"clients", "servers"}) {
        INFO(side);
        CHECK(t.at(side).at("count") == 2);
        CHECK(t.at(side).at("report").at("conns") == 200);
        for (const json &step : t.at(side).at("report").at("steps"))
            if (step.at("step") == "cm connect") CHECK(step.at("samples") == 200);
    }
}

TEST_CASE("cmtime under mpirun: 6 ranks, --servers 3") {
    auto r = run_process(launch(6, {"-S", "--servers", "3", "-c", "20", "--timeout", "60"}), 120);
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("6 ranks; 3 servers (ranks 0-2), 3 clients (ranks 3-5)"));
    CHECK(count(r.out, "Mesh sockets test: 180 client connections of 3 clients\n") == 1);
    CHECK(count(r.out, "Mesh sockets test: 180 accepted connections of 3 servers\n") == 1);
    const auto connect = row(r.out, "180 client connections", "cm connect");
    REQUIRE(connect.size() == 8);
    CHECK(connect[0] == connect[1] / 180);
}

TEST_CASE("cmtime under mpirun: --servers out of range, -P and -L refused by rank 0 alone") {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--servers", "0"}, "--servers must be in [1, 3]"},
        {{"--servers", "4"}, "--servers must be in [1, 3]"},
        {{"-P", "3"}, "-P 3 does not match the 4 ranks the launcher started"},
        {{"-L"}, "-L cannot pick roles under a launcher"},
    };
    for (const auto &[extra, message] : cases) {
        std::vector<std::string> args = {"-S", "-c", "10", "--timeout", "30"};
        args.insert(args.end(), extra.begin(), extra.end());
        auto r = run_process(launch(4, args), 60);
        INFO("case: " << message << "\nstdout:\n" << r.out << "\nstderr:\n" << r.err);
        CHECK(r.exit_code == 1);
        CHECK(count(r.err, message) == 1);
        CHECK(r.seconds < wall_bound(30));
        if (extra[0] == "--servers") CHECK_THAT(r.err, Catch::Contains("got " + extra[1]));
        if (extra[0] == "-L") CHECK_THAT(r.err, Catch::Contains("use --servers M"));
        CHECK_THAT(r.out, !Catch::Contains("Mesh sockets test"));
    }
}

TEST_CASE("cmtime under mpirun: -C and -p are ignored with one note from rank 0") {
    auto r = run_process(
        launch(2, {"-S", "-C", "10.9.9.9", "-p", "9", "-c", "10", "--timeout", "60"}), 120);
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(count(r.err, "note: -C 10.9.9.9 is ignored under a launcher") == 1);
    CHECK(count(r.err, "note: -p 9 is ignored under a launcher") == 1);
    CHECK(count(r.out, "Mesh sockets test: 10 client connections of 1 client\n") == 1);
}

TEST_CASE("cmtime under mpirun: a rank killed mid-run ends every other rank naming it") {
    const std::string tag = "CMDBENCH_LAUNCHER_TEST=" + std::to_string(getpid());
    const std::string dir = temp_dir();
    // Rank 3 (a client) stops itself once the mesh is wired; the others wait
    // for it (servers accepting, rank 2 in a barrier); the test kills it.
    // Open MPI ends the job once a rank failed: SIGTERM, SIGKILL
    // odls_base_sigkill_timeout later (1 s). The survivors must speak before
    // that; 5 s, so that a loaded TSan host (seen) does not cut them short.
    std::vector<std::string> argv =
        launch_stopping(4, 3, {"-S", "--servers", "2", "-c", "50", "--timeout", "120"},
                        {"-x", tag, "--mca", "odls_base_sigkill_timeout", "5"});
    const pid_t job = start_process(argv, dir + "/out", dir + "/err");
    pid_t victim = -1;
    for (int i = 0; i < 600 && (victim < 0 || process_state(victim) != 'T'); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (victim < 0) victim = rank_pid(3, tag);
    }
    const bool stopped = victim > 0 && process_state(victim) == 'T';
    if (stopped) kill(victim, SIGKILL);
    const auto t0 = std::chrono::steady_clock::now();
    const int rc = wait_process(job, 60);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::string out = read_file(dir + "/out"), err = read_file(dir + "/err");
    INFO("stdout:\n" << out << "\nstderr:\n" << err);
    REQUIRE(stopped);
    CHECK(rc != 0);
    CHECK(rc != -1);  // mpirun ended on its own
    CHECK(secs < 20); // far below --timeout 120
    // Each survivor ends with an error that names the lost rank.
    const std::string lost = "rank 3 on " + hostname();
    for (int survivor = 0; survivor < 3; ++survivor) {
        INFO("survivor " << survivor);
        const std::string prefix =
            "cmdbench cmtime (rank " + std::to_string(survivor) + " on " + hostname() + "): ";
        const size_t at = err.find(prefix);
        REQUIRE(at != std::string::npos);
        CHECK_THAT(err.substr(at, err.find('\n', at) - at), Catch::Contains(lost));
    }
    CHECK_THAT(out, !Catch::Contains("Mesh sockets test"));
}

TEST_CASE("cmtime under mpirun: a rank that stops answering is named by every rank, bounded") {
    // Rank 3 stops itself and is never killed: the controller's wait for it
    // ends at --timeout and it tells everyone who was late.
    auto r = run_process(
        launch_stopping(4, 3, {"-S", "--servers", "2", "-c", "50", "--timeout", "3"}), 60);
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    CHECK(r.exit_code != 0);
    CHECK(r.exit_code != -1);
    CHECK(r.seconds < wall_bound(20)); // --timeout 3, plus 5 s for the others at most
    for (int survivor = 0; survivor < 3; ++survivor)
        CHECK_THAT(r.err,
                   Catch::Contains("cmdbench cmtime (rank " + std::to_string(survivor) + " on " +
                                   hostname() + "): rank 3 on " + hostname() + " did not answer"));
}

TEST_CASE("cmtime under mpirun: a rank that cannot take part is named by every rank") {
    auto r = run_process(launch(2, {"-S", "-B", "nosuchif0", "--timeout", "30"}), 60);
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.seconds < wall_bound(20));
    for (int rank = 0; rank < 2; ++rank)
        CHECK_THAT(r.err, Catch::Contains("cmdbench cmtime (rank " + std::to_string(rank) + " on " +
                                          hostname() + "): rank 0 on " + hostname() +
                                          " cannot take part: Failed to find IP address for "
                                          "interface: nosuchif0; rank 1 on "));
    CHECK_THAT(r.out, !Catch::Contains("Mesh sockets test"));
}

TEST_CASE("cmtime under mpirun: two nodes (a fake ssh launch agent), ranks named by node") {
    // mpirun treats 127.0.0.2 as another node and starts its daemon through
    // the launch agent, which runs it here: two PMIx servers, one job.
    const std::string agent = temp_dir() + "/fake-ssh";
    {
        std::ofstream f(agent);
        f << "#!/bin/sh\n# ssh [options] host command: run the command here\n"
             "while [ $# -gt 0 ]; do case \"$1\" in -*) shift;; *) break;; esac; done\n"
             "shift\nexec sh -c \"$*\"\n";
    }
    REQUIRE(chmod(agent.c_str(), 0755) == 0);
    auto r = run_process(launch(4, {"-S", "--servers", "2", "-c", "25", "--timeout", "60"},
                                {"--host", "localhost:2,127.0.0.2:2", "--map-by", "node", "--mca",
                                 "plm_rsh_agent", agent}),
                         120);
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE(r.exit_code == 0);
    // By node: ranks 0 and 2 here, 1 and 3 on the other node; a server on each.
    CHECK_THAT(r.out, Catch::Contains("\n  " + hostname() + " ("));
    CHECK_THAT(r.out, Catch::Contains("): ranks 0, 2\n"));
    CHECK_THAT(r.out, Catch::Contains("\n  127.0.0.2 ("));
    CHECK_THAT(r.out, Catch::Contains("): ranks 1, 3\n"));
    CHECK(count(r.out, "Mesh sockets test: 100 client connections of 2 clients\n") == 1);
    CHECK(count(r.out, "Mesh sockets test: 100 accepted connections of 2 servers\n") == 1);
}

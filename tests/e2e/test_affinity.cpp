// End to end: `cpus` and `numa` place both sides of a run for real. While a
// one-second throughput run goes on, every thread of the client (cmdbench
// run) and of its local server (the child it starts) is read back from
// /proc: the CPUs they may run on and the memory policy of the threads that
// start the test. A CPU this machine lacks is a scenario error (exit 2)
// before anything runs. The machine needs CPUs 0 and 1.
#include "process.hpp"

#include <catch2/catch.hpp>
#include <dirent.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <unistd.h>

using nlohmann::json;

namespace {

std::string scenario_with(const std::string &placement) {
    return "[[run]]\nname = \"placed\"\ntest = \"throughput\"\ntransport = \"tcp\"\n"
           "sizes = [65536]\nduration = 1.0\n" +
           placement + "\n";
}

std::string read_all(const std::string &path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> tasks_of(pid_t pid) {
    std::vector<std::string> out;
    const std::string dir = "/proc/" + std::to_string(pid) + "/task";
    if (DIR *d = opendir(dir.c_str())) {
        while (dirent *e = readdir(d))
            if (e->d_name[0] != '.') out.push_back(dir + "/" + e->d_name);
        closedir(d);
    }
    return out;
}

// "Cpus_allowed_list" of every thread of `pid`; empty when it is gone.
std::set<std::string> cpus_allowed(pid_t pid) {
    std::set<std::string> out;
    for (const std::string &task : tasks_of(pid)) {
        std::ifstream in(task + "/status");
        for (std::string line; std::getline(in, line);)
            if (line.rfind("Cpus_allowed_list:", 0) == 0)
                out.insert(line.substr(line.find('\t') + 1));
    }
    return out;
}

// The children of `pid` (the local server).
std::vector<pid_t> children_of(pid_t pid) {
    std::vector<pid_t> out;
    std::ifstream in("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children");
    for (pid_t c; in >> c;)
        out.push_back(c);
    return out;
}

// What a process looked like while its run went on.
struct Seen {
    std::set<std::string> client_cpus, server_cpus;
    size_t client_threads = 0, server_threads = 0;
    bool client_bound = false, server_bound = false; // "bind:0" in numa_maps
};

bool bound_to_node0(pid_t pid) {
    return read_all("/proc/" + std::to_string(pid) + "/numa_maps").find(" bind:0 ") !=
           std::string::npos;
}

// Runs the scenario and samples both processes until the run's threads
// exist on both sides (more than one thread each: the test's worker).
Seen run_and_watch(const std::string &dir, const std::string &placement, int &exit_code) {
    const std::string scenario = dir + "/s.toml";
    std::ofstream(scenario) << scenario_with(placement);
    const pid_t pid =
        start_process({cmdbench_exe(), "run", scenario, "--quiet", "-o", dir + "/out.json"},
                      dir + "/out.txt", dir + "/err.txt");
    Seen seen;
    const auto t0 = std::chrono::steady_clock::now();
    while (seconds_since(t0) < 30 && seen.server_threads < 2) {
        const std::vector<pid_t> kids = children_of(pid);
        if (!kids.empty()) {
            Seen now;
            now.client_cpus = cpus_allowed(pid);
            now.server_cpus = cpus_allowed(kids[0]);
            now.client_threads = tasks_of(pid).size();
            now.server_threads = tasks_of(kids[0]).size();
            now.client_bound = bound_to_node0(pid);
            now.server_bound = bound_to_node0(kids[0]);
            if (now.client_threads >= 2 && now.server_threads >= 2) seen = now;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    exit_code = wait_process(pid, 60);
    return seen;
}

} // namespace

TEST_CASE("cpus = \"1\" and numa = 0 pin both sides, read back from /proc and in the results") {
    const std::string dir = temp_dir();
    int code = -1;
    const Seen seen = run_and_watch(dir, "cpus = \"1\"\nnuma = 0", code);
    INFO(read_all(dir + "/err.txt"));
    REQUIRE(code == 0);
    CHECK(seen.client_threads >= 2);
    CHECK(seen.server_threads >= 2);
    CHECK(seen.client_cpus == std::set<std::string>{"1"});
    CHECK(seen.server_cpus == std::set<std::string>{"1"});
    CHECK(seen.client_bound);
    CHECK(seen.server_bound);

    const json doc = json::parse(read_all(dir + "/out.json"));
    const json &path = doc.at("runs").at(0).at("path");
    INFO(path.dump(2));
    for (const char *side : {"client", "server"}) {
        const json &a = path.at(side).at("affinity");
        CHECK(a.at("requested_cpus") == "1");
        CHECK(a.at("requested_numa") == "0");
        CHECK(a.at("numa_node") == "0");
        CHECK(a.at("cpus_allowed") == "1");
        CHECK(a.at("cpus_seen") == "1");
        CHECK(a.at("memory_policy") == "bind");
        CHECK(a.at("memory_nodes") == "0");
        CHECK(a.at("memory_node_seen") == "0");
    }
    const std::string table = read_all(dir + "/out.txt");
    CHECK(table.find("affinity: client cpus 1 (asked 1), seen 1; memory bind 0 (asked numa 0), "
                     "seen node 0\n") != std::string::npos);
    CHECK(table.find("affinity: server cpus 1 (asked 1)") != std::string::npos);
}

TEST_CASE("cpus for the client only: the local server it starts is not placed") {
    // The server starts while the client side is placed; it must not
    // inherit the client's CPU.
    const std::string dir = temp_dir();
    int code = -1;
    const Seen seen = run_and_watch(dir, "cpus = { client = \"0\" }", code);
    INFO(read_all(dir + "/err.txt"));
    REQUIRE(code == 0);
    CHECK(seen.client_cpus == std::set<std::string>{"0"});
    CHECK(seen.server_cpus == cpus_allowed(getpid())); // as this test's own
    CHECK_FALSE(seen.client_bound);                    // no numa: the memory policy is left alone
    const json path = json::parse(read_all(dir + "/out.json")).at("runs").at(0).at("path");
    CHECK(path.at("client").at("affinity").at("cpus_seen") == "0");
    CHECK(path.at("client").at("affinity").at("requested_cpus") == "0");
    CHECK(path.at("server").at("affinity").at("requested_cpus") == "");
    CHECK(path.at("server").at("affinity").at("cpus_allowed") == *cpus_allowed(getpid()).begin());
    CHECK(path.at("server").at("affinity").at("memory_policy") == "default");
}

TEST_CASE("a CPU this machine does not have is a scenario error before anything runs") {
    const std::string dir = temp_dir();
    std::ofstream(dir + "/s.toml") << scenario_with("cpus = \"0,7\"");
    const ProcessResult r = run_process({cmdbench_exe(), "run", dir + "/s.toml", "--quiet"}, 60);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find(dir + "/s.toml:7:8: 'cpus' names CPU 7, which this machine does not have "
                           "(CPUs: ") != std::string::npos);
    CHECK(r.err.find("(the client side of run 'placed')") != std::string::npos);
}

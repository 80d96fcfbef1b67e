// A plugin that crashes takes the cmdbench process down with it; the runs
// that ended before it must still be in the -o file, the exit status must
// say something went wrong, and the local server must not be left behind.
#include "process.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Whether any process carries `entry` in its environment: the local server
// inherits the client's, and other tests' servers do not have this one.
bool process_with_env(const std::string &entry) {
    for (const auto &proc : fs::directory_iterator("/proc")) {
        std::ifstream in(proc.path() / "environ", std::ios::binary);
        for (std::string var; std::getline(in, var, '\0');)
            if (var == entry) return true;
    }
    return false;
}

} // namespace

TEST_CASE("a run that segfaults keeps the earlier runs' results and fails the exit status") {
    const std::string dir = temp_dir();
    const std::string scenario = dir + "/crash.toml";
    const std::string out = dir + "/results.json";
    const std::string tag = "CMDBENCH_CRASH_TEST=" + dir;
    std::ofstream(scenario) << R"([[run]]
name = "before-the-crash"
test = "pingpong"
transport = "tcp"
sizes = [64, 4096]
iterations = 100
[[run]]
name = "crashes"
test = "crash"
timeout = 10
[[run]]
name = "never-runs"
test = "pingpong"
transport = "tcp"
sizes = [64]
iterations = 10
)";
    ProcessResult r = run_process({cmdbench_exe(), "run", scenario, "-o", out, "--plugin-dir",
                                   std::string(CMDBENCH_BINARY_DIR) + "/tests/fixtures/fault"},
                                  120, {tag});
    INFO("exit " << r.exit_code << "\nstdout: " << r.out << "\nstderr: " << r.err);
    if (CMDBENCH_SANITIZED)
        CHECK((r.exit_code == 1 || r.exit_code == 66)); // ASan / TSan report the SEGV, exit
    else
        CHECK(r.exit_code == 128 + SIGSEGV); // died of the crash, not of a timeout
    CHECK(r.seconds < wall_bound(60));

    json doc = json::parse(read_file(out));
    REQUIRE(doc["runs"].size() == 1);
    const json &run = doc["runs"][0];
    CHECK(run["name"] == "before-the-crash");
    CHECK(run["status"] == "ok");
    REQUIRE(run["rows"].size() == 2);
    CHECK(run["rows"][0]["name"] == "64_lat");
    CHECK(run["rows"][1]["name"] == "4k_lat");

    // The server child follows its parent (bounded wait for its exit).
    bool server_gone = false;
    for (int i = 0; i < 50 && !server_gone; ++i) {
        server_gone = !process_with_env(tag);
        if (!server_gone) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    CHECK(server_gone);
}

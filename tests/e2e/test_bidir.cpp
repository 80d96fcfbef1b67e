// End to end: throughput with bidirectional = true over loopback TCP, the
// real binary and its local server: a row per direction and their sum, every
// byte counted on both sides, the directions overlapping in time, the one
// combination refused, and a server that dies mid-run ending the run.
#include "process.hpp"
#include "results_doc.hpp"
#include "serve_fixture.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <csignal>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

using nlohmann::json;

namespace {

std::map<std::string, json> rows_by_name(const json &run) {
    std::map<std::string, json> out;
    for (const json &row : run["rows"])
        out[row["name"].get<std::string>()] = row;
    return out;
}

} // namespace

TEST_CASE("throughput both ways: rows per direction and their sum, overlapping in time") {
    const std::string scenario = write_scenario(temp_dir(), "scenario.toml", R"(
[defaults]
test = "throughput"
transport = "tcp"
bidirectional = true
[[run]]
name = "timed"
sizes = [1000, 65536]
duration = 0.3
[[run]]
name = "counted"
sizes = [65536]
duration = 0
bytes = 3000000
[[run]]
name = "counted-async"
sizes = [4096]
duration = 0
bytes = 1000000
async = true
)");
    ProcessResult r = run_process({cmdbench_exe(), "run", scenario, "--format", "json"}, 120);
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    const json doc = json::parse(r.out);
    REQUIRE(doc["runs"].size() == 3);

    // Rows in order: each size's c2s, s2c, then their sum.
    const json &timed = doc["runs"][0];
    REQUIRE(timed["status"] == "ok");
    std::vector<std::string> names;
    for (const json &row : timed["rows"])
        names.push_back(row["name"]);
    CHECK(names == std::vector<std::string>{"1000 c2s", "1000 s2c", "1000 bidir", "64k c2s",
                                            "64k s2c", "64k bidir"});
    for (const std::string size : {"1000", "64k"}) {
        auto rows = rows_by_name(timed);
        const json &c2s = rows[size + " c2s"], &s2c = rows[size + " s2c"],
                   &sum = rows[size + " bidir"];
        INFO(size);
        CHECK(metric(c2s, "total") > 0);
        CHECK(metric(s2c, "total") > 0);
        // The sum: both directions' bytes over the union of their windows.
        CHECK(metric(sum, "total") == metric(c2s, "total") + metric(s2c, "total"));
        const double union_s = std::max(metric(c2s, "end"), metric(s2c, "end"));
        CHECK(metric(sum, "time") == Approx(union_s).epsilon(1e-6));
        CHECK(metric(sum, "Gb/sec") ==
              Approx(metric(sum, "total") * 8 / metric(sum, "time") / 1e9).epsilon(1e-6));
        // One time line: the earlier direction starts it; each streamed for
        // about the duration, and they ran at once for most of it.
        CHECK(std::min(metric(c2s, "start"), metric(s2c, "start")) == 0);
        CHECK(metric(c2s, "time") > 0.2);
        CHECK(metric(s2c, "time") > 0.2);
        CHECK(metric(c2s, "start") < metric(s2c, "end"));
        CHECK(metric(s2c, "start") < metric(c2s, "end"));
        CHECK(metric(sum, "overlap") > 0.5 * std::min(metric(c2s, "time"), metric(s2c, "time")));
        // One machine, one clock: the estimated offset is 0 within its bound.
        CHECK(std::abs(metric(sum, "clock_offset")) <= metric(sum, "clock_error") + 1e-9);
        CHECK(metric(sum, "clock_error") < 0.05);
        // The client ends its stream only once it has the server's end, so
        // the two ends never cross (docs/bidirectional.md): c2s ends last.
        CHECK(metric(c2s, "end") + metric(sum, "clock_error") >= metric(s2c, "end"));
        // Only the directions count as moved: CPU per GB is over both, once.
        CHECK(sum["metrics"]["total"]["flags"] == json::array());
        CHECK(c2s["metrics"]["total"]["flags"] == json::array({"moved"}));
    }
    const json &cpu = timed["cpu"];
    if (!cpu["client"].is_null() && !cpu["server"].is_null() && !timed["cpu_per_gb_s"].is_null()) {
        double moved = 0, cpu_s = 0;
        for (const json &row : timed["rows"])
            if (row["name"].get<std::string>().find("bidir") == std::string::npos)
                moved += metric(row, "total");
        for (const char *side : {"client", "server"})
            cpu_s += cpu[side]["user_s"].get<double>() + cpu[side]["sys_s"].get<double>();
        CHECK(timed["cpu_per_gb_s"].get<double>() == Approx(cpu_s / (moved / 1e9)).epsilon(1e-6));
    }

    // By bytes: each receiver got exactly what the other side sent.
    for (int i : {1, 2}) {
        const json &run = doc["runs"][i];
        INFO(run["name"]);
        REQUIRE(run["status"] == "ok");
        REQUIRE(run["rows"].size() == 3);
        const double want = i == 1 ? 3000000 : 1000000;
        CHECK(metric(run["rows"][0], "total") == want);
        CHECK(metric(run["rows"][1], "total") == want);
        CHECK(metric(run["rows"][2], "total") == 2 * want);
    }
}

TEST_CASE("throughput both ways refuses blocking calls, naming both keys") {
    const std::string scenario = write_scenario(temp_dir(), "scenario.toml", R"(
[[run]]
test = "throughput"
transport = "tcp"
bidirectional = true
blocking = true
sizes = [65536]
duration = 0.1
)");
    ProcessResult r = run_process({cmdbench_exe(), "run", scenario, "--format", "json"}, 60);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 1);
    const json doc = json::parse(r.out);
    CHECK(doc["runs"][0]["status"] == "failed");
    CHECK(doc["runs"][0]["rows"].empty());
    CHECK_THAT(doc["runs"][0]["error"].get<std::string>(),
               Catch::Contains("blocking = true cannot be combined with bidirectional = true"));
}

TEST_CASE("a server that dies while both ways stream ends the run with a reason, not a hang") {
    ServeProcess server({"--once", "--no-limits"});
    const std::string scenario = write_scenario(temp_dir(), "scenario.toml", R"(
[[run]]
test = "throughput"
transport = "tcp"
bidirectional = true
sizes = [65536]
duration = 30
timeout = 60
)");
    const std::string dir = temp_dir();
    const auto t0 = std::chrono::steady_clock::now();
    pid_t client = start_process(
        {cmdbench_exe(), "run", scenario, "--server", server.address(), "--format", "json"},
        dir + "/client.out", dir + "/client.err");
    // Kill the server once the run is under way (its data connection is up).
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    kill(server.pid(), SIGKILL);
    const int code = wait_process(client, 30);
    const std::string out = read_file(dir + "/client.out");
    INFO("stderr: " << read_file(dir + "/client.err") << "\nstdout: " << out);
    CHECK(code == 1);
    CHECK(seconds_since(t0) < wall_bound(20));
    const json doc = json::parse(out);
    CHECK(doc["runs"][0]["status"] != "ok");
    CHECK_FALSE(doc["runs"][0]["error"].get<std::string>().empty());
}

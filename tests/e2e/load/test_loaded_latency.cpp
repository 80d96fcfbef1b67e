// Latency under load (scenario key `background`, docs/loaded-latency.md):
// the run alone, then beside background flows the host runs, over real TCP
// on loopback; a background that ends early or is killed is a note on the
// loaded result, whose rows are kept, and the run does not hang.
#include "process.hpp"
#include "results_doc.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

using Catch::Contains;
using nlohmann::json;

namespace {

// The measured run of the tests that add only a background to it.
const std::string kPingpong = R"([[run]]
name = "lat"
test = "pingpong"
transport = "tcp"
sizes = [64]
iterations = 150
)";

const std::string kPingpongUnderLoad =
    kPingpong +
    R"(background = { test = "throughput", transport = "tcp", flows = 2, params = { sizes = [65536], duration = 0.2, run_infinitely = true } }
)";

// The comparison's cell of `column` in the row of (item, metric), or null.
json cell_of(const json &doc, const std::string &item, const std::string &metric,
             const std::string &column) {
    for (const json &row : doc["comparison"]["result"]["rows"])
        if (row["item"] == item && row["metric"] == metric)
            for (const json &cell : row["cells"])
                if (cell["column"] == column) return cell;
    return nullptr;
}

// The local servers the run's background flows started: children of its
// threads other than the main one (each flow forks its server from its own).
std::vector<pid_t> flow_servers(pid_t run) {
    std::vector<pid_t> out;
    const std::string tasks = "/proc/" + std::to_string(run) + "/task";
    for (const auto &task : std::filesystem::directory_iterator(tasks)) {
        if (task.path().filename() == std::to_string(run)) continue;
        std::ifstream in(task.path() / "children");
        for (pid_t child; in >> child;)
            out.push_back(child);
    }
    return out;
}

} // namespace

TEST_CASE("under load: the run alone and beside two TCP flows, side by side") {
    const std::string dir = temp_dir();
    const auto r =
        run_process({cmdbench_exe(), "run", write_scenario(dir, "load.toml", kPingpongUnderLoad),
                     "--format", "json"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, Contains("lat under load: measuring beside 2 background flows"));
    const json doc = json::parse(r.out);
    const json &runs = doc["runs"];
    REQUIRE(runs.size() == 2);
    CHECK(runs[0]["name"] == "lat");
    CHECK(runs[0]["variant"] == "tcp");
    CHECK_FALSE(runs[0].contains("background"));
    const json &loaded = runs[1];
    CHECK(loaded["name"] == "lat under load");
    CHECK(loaded["variant"] == "tcp under load");
    CHECK(loaded["status"] == "ok");
    CHECK(row_names(loaded["rows"]) == std::vector<std::string>{"64_lat"});

    const json &bg = loaded["background"];
    CHECK(bg["test"] == "throughput");
    CHECK(bg["transport"] == "tcp");
    CHECK(bg["flows"] == 2);
    CHECK(bg["notes"].empty());
    const auto names = row_names(bg["rows"]);
    CHECK(std::count(names.begin(), names.end(), "flow 1: 64k #1") == 1);
    CHECK(std::count(names.begin(), names.end(), "flow 2: 64k #1") == 1);
    REQUIRE(bg["Gb/sec"].is_number());
    CHECK(bg["Gb/sec"].get<double>() > 0);

    // The comparison sets both side by side: p99 with and without load, and
    // what the background moved beside the loaded one.
    const json columns = doc["comparison"]["result"]["columns"];
    CHECK(columns == json::array({"tcp", "tcp under load"}));
    CHECK(cell_of(doc, "64_lat", "latency_p99", "tcp")["median"].is_number());
    CHECK(cell_of(doc, "64_lat", "latency_p99", "tcp under load")["median"].is_number());
    const json moved = cell_of(doc, "background", "background Gb/sec", "tcp under load");
    REQUIRE(moved.is_object());
    CHECK(moved["median"].get<double>() == Approx(bg["Gb/sec"].get<double>()));
}

TEST_CASE("under load: a background that ends first is named, the run measured all the same") {
    const std::string dir = temp_dir();
    const auto r = run_process({cmdbench_exe(), "run", write_scenario(dir, "load.toml", R"([[run]]
name = "bw"
test = "throughput"
transport = "tcp"
sizes = [65536]
duration = 0.6
background = { test = "throughput", transport = "tcp", params = { sizes = [65536], duration = 0.1 } }
)"),
                                "--format", "json"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const json loaded = json::parse(r.out)["runs"][1];
    CHECK(loaded["status"] == "ok");
    CHECK(row_names(loaded["rows"]) == std::vector<std::string>{"64k"});
    REQUIRE(loaded["background"]["notes"].size() == 1);
    CHECK_THAT(loaded["background"]["notes"][0].get<std::string>(),
               Contains("background flow 1 (throughput over tcp) ended before the measured run "
                        "did: part of the run was measured without it"));
    CHECK_THAT(r.err, Contains("cmdbench: warning: bw under load: background flow 1"));
}

// The stop of a background ends its server's side too (the stall test
// waits for it): the client stopped the run, so its server logs no failure.
TEST_CASE("under load: a stopped background's server logs no failure") {
    const std::string dir = temp_dir();
    const std::string toml = kPingpong + "background = { test = \"stall\" }\n";
    const auto r = run_process({cmdbench_exe(), "run", write_scenario(dir, "load.toml", toml),
                                "--format", "json", "--plugin-dir",
                                std::string(CMDBENCH_BINARY_DIR) + "/tests/fixtures/fault"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    // The flow's server ran (it said so), and said nothing of its end.
    CHECK_THAT(r.err, Contains("cmdbench serve: info: stall: waiting"));
    CHECK_THAT(r.err, !Contains("cmdbench serve: run"));
    const json loaded = json::parse(r.out)["runs"][1];
    CHECK(loaded["status"] == "ok");
    CHECK(loaded["background"]["notes"].empty());
}

TEST_CASE("under load: a background whose server is killed is named, the run ends in time") {
    const std::string dir = temp_dir();
    const std::string path = write_scenario(dir, "load.toml", R"([[run]]
name = "bw"
test = "throughput"
transport = "tcp"
sizes = [65536]
duration = 1.5
timeout = 60
background = { test = "stall" }
)");
    const pid_t pid =
        start_process({cmdbench_exe(), "run", path, "--format", "json", "--plugin-dir",
                       std::string(CMDBENCH_BINARY_DIR) + "/tests/fixtures/fault"},
                      dir + "/out", dir + "/err");
    // The stall test reports a row, then says so and waits for its cancel:
    // the measured run is under way.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (read_file(dir + "/err").find("stall: waiting") == std::string::npos &&
           std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const std::vector<pid_t> servers = flow_servers(pid);
    INFO(read_file(dir + "/err"));
    REQUIRE(servers.size() == 1);
    kill(servers[0], SIGKILL);
    const auto killed = std::chrono::steady_clock::now();
    const int code = wait_process(pid, 120);
    // The measured run's 1.5 s and its stop: never the background's timeout.
    CHECK(seconds_since(killed) < wall_bound(15));
    INFO(read_file(dir + "/err"));
    CHECK(code == 0);
    const json loaded = json::parse(read_file(dir + "/out"))["runs"][1];
    CHECK(loaded["status"] == "ok");
    CHECK(row_names(loaded["rows"]) == std::vector<std::string>{"64k"});
    CHECK(row_names(loaded["background"]["rows"]) == std::vector<std::string>{"flow 1: first"});
    REQUIRE(loaded["background"]["notes"].size() == 1);
    const std::string note = loaded["background"]["notes"][0];
    CHECK_THAT(note, Contains("background flow 1 (stall) ended before the measured run did"));
    CHECK_THAT(note, Contains("SIGKILL"));
}

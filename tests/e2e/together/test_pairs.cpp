// Multi-pair message rate (scenario key `pairs`, docs/message-rate.md): N
// client/server pairs of one run's test at once over real TCP on loopback,
// each pair's rows, the sums, the scaling table, and a pair that dies.
#include "process.hpp"
#include "results_doc.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <dirent.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

using Catch::Contains;
using nlohmann::json;

namespace {

const char *kSeries = R"([[run]]
name = "rate"
test = "throughput"
transport = "tcp"
sizes = [64]
duration = 0.5
pairs = [1, 4]
)";

// The children of `parent` (local servers, forked by its pair threads).
std::vector<pid_t> children_of(pid_t parent) {
    std::vector<pid_t> out;
    DIR *proc = opendir("/proc");
    if (!proc) return out;
    while (const dirent *e = readdir(proc)) {
        const pid_t pid = pid_t(std::atoi(e->d_name));
        if (pid <= 0) continue;
        std::istringstream fields(proc_stat_fields(pid));
        std::string state;
        pid_t ppid = 0;
        if (fields >> state >> ppid && ppid == parent) out.push_back(pid);
    }
    closedir(proc);
    return out;
}

// Threads of `pid`: a local server runs its side of a test on a thread of
// its own, so a second one means the run is under way there.
size_t threads_of(pid_t pid) {
    size_t n = 0;
    if (DIR *d = opendir(("/proc/" + std::to_string(pid) + "/task").c_str())) {
        while (const dirent *e = readdir(d))
            n += e->d_name[0] != '.';
        closedir(d);
    }
    return n;
}

// Waits (bounded) until `count` local servers of `client` run their test.
std::vector<pid_t> servers_running(pid_t client, size_t count) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
        std::vector<pid_t> busy;
        for (pid_t c : children_of(client))
            if (threads_of(c) >= 2) busy.push_back(c);
        if (busy.size() >= count || std::chrono::steady_clock::now() > end) return busy;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

} // namespace

TEST_CASE("pairs: 1 then 4 pairs at once, each pair's rows and their sum") {
    const std::string dir = temp_dir();
    const auto r = run_process({cmdbench_exe(), "run", write_scenario(dir, "pairs.toml", kSeries),
                                "--format", "json", "-o", dir + "/out.json"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const json doc = json::parse(r.out);
    const json &runs = doc["runs"];
    REQUIRE(runs.size() == 2);
    CHECK(runs[0]["name"] == "rate (1 pair)");
    CHECK(runs[0]["variant"] == "tcp 1 pair");
    CHECK(runs[1]["name"] == "rate (4 pairs)");
    CHECK(runs[1]["variant"] == "tcp 4 pairs");

    const json &four = runs[1];
    REQUIRE(four["pairs"].size() == 4);
    double sum = 0;
    for (int k = 1; k <= 4; ++k) {
        CHECK(four["pairs"][k - 1]["status"] == "ok");
        const json *row = row_named(four, "pair " + std::to_string(k) + "/64");
        REQUIRE(row);
        CHECK(metric(*row, "msgs/sec") > 0);
        sum += metric(*row, "msgs/sec");
    }
    const json *total = row_named(four, "64");
    REQUIRE(total);
    CHECK(metric(*total, "msgs/sec") == Approx(sum));
    // The four streamed at the same time: 0.5 s each, past one start line.
    double start = 0, end = 1e9;
    for (const json &p : four["pairs"]) {
        start = std::max(start, p["start_seconds"].get<double>());
        end = std::min(end, p["start_seconds"].get<double>() + p["wall_seconds"].get<double>());
    }
    CHECK(end - start > 0.3);
    CHECK(four["pairs_overlap_seconds"].get<double>() == Approx(end - start));

    // The scaling table, in JSON as in the table.
    REQUIRE(doc["scaling"].size() == 1);
    const json &s = doc["scaling"][0];
    CHECK(s["series"] == "rate");
    CHECK(s["metric"] == "msgs/sec");
    REQUIRE(s["rows"].size() == 2);
    CHECK(s["rows"][0]["pairs"] == 1);
    CHECK(s["rows"][0]["ratio"] == 1.0);
    CHECK(s["rows"][1]["pairs"] == 4);
    CHECK(s["rows"][1]["aggregate"].get<double>() == Approx(metric(*total, "msgs/sec")));
    CHECK(s["rows"][1]["ratio"].get<double>() ==
          Approx(metric(*total, "msgs/sec") / metric(*row_named(runs[0], "64"), "msgs/sec")));

    // compare reads the file back: a column per count, and the HTML page
    // has the scaling table, read from the pairs of each run.
    const auto table =
        run_process({cmdbench_exe(), "compare", dir + "/out.json", "--report", dir + "/c.html"});
    CHECK(table.exit_code == 0);
    CHECK_THAT(table.out, Contains("tcp 1 pair") && Contains("tcp 4 pairs"));
    CHECK_THAT(read_file(dir + "/c.html"),
               Contains("<h2>Message rate by pairs</h2>") &&
                   Contains("<tr><td>rate</td><td>64</td><td>4</td><td>msgs/sec</td>"));
}

TEST_CASE("pairs: the table ends with the scaling table") {
    const std::string dir = temp_dir();
    const auto r =
        run_process({cmdbench_exe(), "run", write_scenario(dir, "pairs.toml", kSeries), "-q"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    // "ran A-B s": A is when the pair passed the start line, after every
    // pair's session (and local server) was open: a second or more under a
    // sanitizer, so only the form is checked.
    CHECK_THAT(r.out, Contains("\npair 4: ok, ran ") &&
                          Contains("rows without a pair label add the pairs up") &&
                          Contains("== message rate by pairs: rate (msgs/sec)") &&
                          Contains("vs 1 pair"));
}

TEST_CASE("pairs: a pair whose server is killed fails the run, naming it, the others' rows kept") {
    const std::string dir = temp_dir();
    const std::string text = R"([[run]]
name = "rate"
test = "throughput"
transport = "tcp"
sizes = [64]
duration = 3.0
timeout = 60
pairs = 4
)";
    const pid_t client = start_process(
        {cmdbench_exe(), "run", write_scenario(dir, "pairs.toml", text), "--format", "json", "-q"},
        dir + "/out", dir + "/err");
    const std::vector<pid_t> servers = servers_running(client, 4);
    REQUIRE(servers.size() == 4);
    kill(servers[2], SIGKILL);
    const auto killed = std::chrono::steady_clock::now();
    const int code = wait_process(client, 120);
    INFO(read_file(dir + "/err"));
    CHECK(code == 1);
    // The others stream out their 3 s; nothing waits for the 60 s timeout.
    CHECK(seconds_since(killed) < wall_bound(15));
    const json run = json::parse(read_file(dir + "/out"))["runs"][0];
    CHECK(run["status"] == "failed");
    size_t failed = 0;
    for (const json &p : run["pairs"]) {
        const std::string label = p["label"];
        if (p["status"] != "ok") {
            ++failed;
            CHECK_THAT(run["error"].get<std::string>(),
                       Catch::StartsWith(label + ": ") && Contains("killed"));
            CHECK_FALSE(row_named(run, label + "/64"));
        } else {
            CHECK(row_named(run, label + "/64"));
        }
    }
    CHECK(failed == 1);
    // No sum without every pair.
    CHECK_FALSE(row_named(run, "64"));
}

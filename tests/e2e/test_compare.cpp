// End to end: `cmdbench run` writes results files over real TCP on loopback,
// `cmdbench compare` puts them side by side, refuses what does not line up,
// and `cmdbench run` prints the comparison of its own variants.
#include "process.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

using nlohmann::json;

namespace {

const std::string &dir() {
    static const std::string d = temp_dir();
    return d;
}

std::string pingpong_scenario(const std::string &sizes, const std::string &extra = "") {
    return "[[run]]\ntest = \"pingpong\"\ntransport = \"tcp\"\nsizes = " + sizes +
           "\niterations = 500\ntimeout = 60\n" + extra;
}

// Runs a scenario once and returns the results file it wrote.
std::string results(const std::string &name, const std::string &scenario) {
    const std::string toml = dir() + "/" + name + ".toml";
    const std::string out = dir() + "/" + name + ".json";
    std::ofstream(toml) << scenario;
    ProcessResult r = run_process({cmdbench_exe(), "run", toml, "--quiet", "-o", out}, 180);
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    return out;
}

// A tcp run, the same with Nagle's algorithm on as another variant, and one
// with other sizes; each made once.
const std::string &file_a() {
    static const std::string f = results("a", pingpong_scenario("[64, 4096]"));
    return f;
}
const std::string &file_b() {
    static const std::string f = results(
        "b", pingpong_scenario("[64, 4096]", "nodelay = false\nvariant = \"tcp-nodelay-off\"\n"));
    return f;
}
const std::string &file_other_sizes() {
    static const std::string f = results("c", pingpong_scenario("[64, 1024]"));
    return f;
}

ProcessResult compare(std::vector<std::string> args) {
    args.insert(args.begin(), {cmdbench_exe(), "compare"});
    return run_process(args, 60);
}

// Whether the kernel lists an RDMA device (an empty or absent class: none).
bool rdma_device_present() {
    std::error_code ec;
    return std::filesystem::directory_iterator("/sys/class/infiniband", ec) !=
           std::filesystem::directory_iterator();
}

// The lines of a comparison table's rows (two spaces, an item, and at least
// a metric, a unit and one column), without the group and column headers.
std::vector<std::string> comparison_rows(const std::string &table) {
    std::vector<std::string> rows;
    std::istringstream text(table);
    for (std::string line; std::getline(text, line);) {
        if (line == "notes:") break;
        if (line.rfind("  ", 0) == 0 && line.rfind("  item ", 0) != 0) rows.push_back(line);
    }
    return rows;
}

const json *find_row(const json &run, const std::string &name) {
    for (const auto &row : run["rows"])
        if (row["name"] == name) return &row;
    return nullptr;
}

} // namespace

TEST_CASE("compare: two result files, every size in both columns, with ratios") {
    ProcessResult r = compare({file_a(), file_b()});
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("baseline tcp"));
    CHECK_THAT(r.out, Catch::Contains("tcp-nodelay-off/tcp"));
    int lines = 0;
    std::istringstream text(r.out);
    for (std::string line; std::getline(text, line);) {
        if (line.find("64_lat") == std::string::npos && line.find("4k_lat") == std::string::npos)
            continue;
        ++lines;
        // Both medians are numbers, and the line ends with the ratio.
        INFO(line);
        CHECK(line.find(" - ") == std::string::npos);
        CHECK(std::regex_search(line, std::regex(" [0-9]+(\\.[0-9]+)?x( better| worse)?$")));
    }
    CHECK(lines == 6); // two sizes x (p50, p99, bandwidth)
}

TEST_CASE("compare: one variant from two files gets numbered labels") {
    ProcessResult r = compare({file_a(), file_a()});
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    // Same variant, same host: the labels count the files.
    CHECK_THAT(r.out, Catch::Contains("baseline tcp#1"));
    CHECK_THAT(r.out, Catch::Contains("tcp#2/tcp#1"));
    // The same numbers on both sides: a ratio of exactly one.
    CHECK_THAT(r.out, Catch::Contains("1.00x"));
    CHECK_THAT(r.out, !Catch::Contains("better") && !Catch::Contains("worse"));
}

TEST_CASE("compare --format json: a cell per column in every row") {
    ProcessResult r =
        compare({file_a(), file_b(), "--format", "json", "--baseline", "tcp-nodelay-off"});
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    const json doc = json::parse(r.out);
    CHECK(doc["columns"] == json({"tcp", "tcp-nodelay-off"}));
    CHECK(doc["baseline"] == "tcp-nodelay-off");
    std::set<double> sizes;
    int per_size = 0, cpu = 0;
    for (const auto &row : doc["rows"]) {
        if (row["item"] == "whole run") {
            ++cpu;
        } else {
            sizes.insert(row["size"].get<double>());
            ++per_size;
        }
        REQUIRE(row["cells"].size() == 2);
        CHECK(row["cells"][0]["median"].get<double>() > 0);
        CHECK(row["cells"][0]["verdict"] == "ratio");
        CHECK(row["cells"][0]["ratio"].get<double>() > 0);
        CHECK(row["cells"][1]["verdict"] == "baseline");
        CHECK(row["cells"][1]["n"] == 1);
    }
    CHECK(per_size == 6); // two sizes x (p50, p99, bandwidth)
    CHECK(cpu == 0);      // latency runs: no CPU per GB
    CHECK(sizes == std::set<double>{64, 4096});
}

TEST_CASE("compare: files with different sizes are refused, and --common takes the common ones") {
    ProcessResult r = compare({file_a(), file_other_sizes()});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Contains("cannot compare: group 'pingpong': the sizes differ"));
    CHECK_THAT(r.err, Catch::Contains("not in every input: 1024, 4096"));
    CHECK_THAT(r.err, Catch::Contains("input 2: " + file_other_sizes()));
    CHECK_THAT(r.err, Catch::Contains("--common"));

    r = compare({file_a(), file_other_sizes(), "--common"});
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("64_lat"));
    CHECK_THAT(r.out, !Catch::Contains("4k_lat") && !Catch::Contains("1k_lat"));
    CHECK_THAT(r.out, Catch::Contains("left out of group 'pingpong': sizes 1024, 4096"));
}

TEST_CASE("compare: unreadable inputs and bad options are refused clearly") {
    const std::string junk = dir() + "/junk.json";
    std::ofstream(junk) << "hello\n";
    ProcessResult r = compare({file_a(), junk});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains(junk + ":1:1: not valid JSON"));

    r = compare({dir() + "/absent.json"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("absent.json: cannot read: No such file or directory"));

    const std::string other = dir() + "/other.json";
    std::ofstream(other) << "{\"schema\": \"something-else\"}\n";
    r = compare({other});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("not a cmdbench results file"));

    r = compare({});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("compare needs results files"));

    r = compare({file_a(), "--baseline", "verbs"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("unknown baseline 'verbs': the columns are tcp"));

    r = compare({file_a(), "--format", "csv"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("--format must be one of table, json"));
}

TEST_CASE("compare: help, and the HTML report") {
    ProcessResult r = run_process({cmdbench_exe(), "help", "compare"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("--common") && Catch::Contains("--baseline"));
    r = run_process({cmdbench_exe(), "--help"});
    CHECK_THAT(r.out, Catch::Contains("compare FILE.json"));

    const std::string html = dir() + "/cmp.html";
    r = compare({file_a(), file_b(), "--report", html});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(read_file(html), Catch::Contains("<!DOCTYPE html>"));
}

TEST_CASE("run: the comparison of its variants follows the results") {
    // rsocket is skipped without an RDMA device, and then shows as a column
    // of missing cells with the reason; where it runs, it has values.
    const std::string toml = dir() + "/two.toml";
    const std::string run = "[[run]]\ntest = \"pingpong\"\nsizes = [64]\niterations = 200\n";
    std::ofstream(toml) << run << "transport = \"tcp\"\n" << run << "transport = \"rsocket\"\n";
    const std::string html = dir() + "/run.html";
    ProcessResult r = run_process(
        {cmdbench_exe(), "run", toml, "--quiet", "--allow-skip", "--report", html}, 180);
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE(r.exit_code == 0);
    const size_t at = r.out.find("== comparison (baseline tcp)");
    REQUIRE(at != std::string::npos);
    const std::string table = r.out.substr(at);
    CHECK_THAT(table, Catch::Contains("rsocket/tcp"));
    CHECK_THAT(table, Catch::Contains("64_lat"));
    CHECK_THAT(read_file(html), Catch::Contains("<!DOCTYPE html>"));

    // JSON on stdout stays pure JSON, and carries the comparison: the very
    // document `cmdbench compare --format json` makes of the results file.
    const std::string out = dir() + "/two.json";
    r = run_process(
        {cmdbench_exe(), "run", toml, "--quiet", "--allow-skip", "--format", "json", "-o", out},
        180);
    REQUIRE(r.exit_code == 0);
    const json doc = json::parse(r.out);
    REQUIRE(doc["comparison"].contains("result"));
    const json &result = doc["comparison"]["result"];
    CHECK(result["schema"] == "cmdbench-comparison");
    CHECK(result["columns"] == json({"tcp", "rsocket"}));
    CHECK(result["baseline"] == "tcp");
    CHECK_FALSE(result["rows"].empty());
    CHECK(json::parse(read_file(out))["comparison"]["result"] == result);
    ProcessResult again = compare({out, "--format", "json"});
    REQUIRE(again.exit_code == 0);
    CHECK(json::parse(again.out) == result);
    // The results file with it reads back as before.
    CHECK(compare({out}).exit_code == 0);
}

TEST_CASE("run: -o gets the comparison with the last write only") {
    // The second run streams for a minute: the file written after the first
    // is there to read while it runs.
    const std::string toml = dir() + "/interim.toml";
    std::ofstream(toml) << "[[run]]\ntest = \"pingpong\"\ntransport = \"tcp\"\nsizes = [64]\n"
                           "iterations = 100\n[[run]]\ntest = \"throughput\"\n"
                           "transport = \"tcp\"\nsizes = [65536]\nduration = 60\n";
    const std::string out = dir() + "/interim.json";
    const pid_t pid = start_process({cmdbench_exe(), "run", toml, "--quiet", "-o", out},
                                    dir() + "/interim.out", dir() + "/interim.err");
    json interim;
    for (auto t0 = std::chrono::steady_clock::now(); seconds_since(t0) < 30;) {
        // The file is replaced whole (rename), so a read sees one version.
        if (std::filesystem::exists(out)) {
            interim = json::parse(read_file(out));
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    kill(pid, SIGINT);
    const int code = wait_process(pid, 30);
    INFO(read_file(dir() + "/interim.err"));
    REQUIRE(interim.is_object());
    CHECK(interim["runs"].size() == 1);
    CHECK(interim["comparison"]["spread_limit"] == 0.25);
    CHECK_FALSE(interim["comparison"].contains("result"));
    CHECK(code == 130);
    // Interrupted, the final document still has the comparison, which
    // says which run did not finish.
    const json final_doc = json::parse(read_file(out));
    REQUIRE(final_doc["runs"].size() == 2);
    REQUIRE(final_doc["comparison"].contains("result"));
    CHECK(final_doc["comparison"]["result"]["notes"].dump().find("interrupted") !=
          std::string::npos);
}

TEST_CASE("run: configs/rdma-vs-tcp.toml without an RDMA device measures the tcp side") {
    if (rdma_device_present())
        FAIL("this test assumes a machine without an RDMA device, as CI machines are, but "
             "/sys/class/infiniband lists one: here the RDMA runs would not be skipped. The "
             "scenario with RDMA is checked in the lab (tests/lab/guest.d/60-rdma-vs-tcp.sh).");
    // The shipped file, made quick: every run once, fewer round trips,
    // shorter streams, fewer connections.
    const std::vector<std::string> quick = {"--set", "repeat=1",     "--set", "iterations=200",
                                            "--set", "duration=0.3", "--set", "count=50"};
    std::vector<std::string> argv = {cmdbench_exe(), "run", source_path("configs/rdma-vs-tcp.toml"),
                                     "-o", dir() + "/rdma-vs-tcp.json"};
    argv.insert(argv.end(), quick.begin(), quick.end());

    // Without --allow-skip the skipped runs fail the exit status.
    ProcessResult r = run_process(argv, 300);
    {
        INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
        CHECK(r.exit_code == 1);
        CHECK_THAT(r.err, Catch::Contains("5 of 8 runs were skipped (pass --allow-skip"));
        CHECK_THAT(r.err, !Catch::Contains("did not succeed"));
        // No device, no device address: the local server stays on loopback.
        CHECK_THAT(r.err, !Catch::Contains("meet at"));
    }
    const json doc = json::parse(read_file(dir() + "/rdma-vs-tcp.json"));
    REQUIRE(doc["runs"].size() == 8);
    std::map<std::string, const json *> by_name;
    for (const auto &run : doc["runs"]) {
        INFO(run["name"] << ": " << run["status"] << ": " << run["error"]);
        by_name[run["name"].get<std::string>()] = &run;
        CHECK(run["repeats"] == 1);
        const std::string variant = run["variant"].get<std::string>();
        if (variant == "tcp") {
            CHECK(run["status"] == "ok");
            CHECK_FALSE(run["rows"].empty());
            continue;
        }
        CHECK(run["status"] == "skipped");
        CHECK(run["rows"].empty());
        const std::string error = run["error"].get<std::string>();
        CHECK_THAT(error, Catch::Contains("tools/rdma-lab"));
        if (run["test"] == "verbs-lat" || run["test"] == "verbs-bw") {
            CHECK(variant == "verbs");
            CHECK_THAT(error, Catch::StartsWith("needs an RDMA device:"));
        } else {
            CHECK((variant == "rsocket" || (variant == "verbs" && run["test"] == "cm-steps")));
            CHECK_THAT(error, Catch::Contains("no RDMA device"));
        }
    }
    // Every group has its three (connect: two) variants, in file order.
    for (const char *name :
         {"latency/tcp", "latency/rsocket", "latency/verbs", "bandwidth/tcp", "bandwidth/rsocket",
          "bandwidth/verbs", "connect/tcp", "connect/verbs"})
        CHECK(by_name.count(name) == 1);
    REQUIRE(by_name.count("latency/verbs"));
    CHECK((*by_name["latency/verbs"])["params"]["op"] == "\"send\"");
    REQUIRE(by_name.count("bandwidth/verbs"));
    CHECK((*by_name["bandwidth/verbs"])["params"]["op"] == "\"write\"");

    // The --set values reached the runs that have those parameters.
    REQUIRE(by_name.count("latency/tcp"));
    const json &latency = *by_name["latency/tcp"];
    REQUIRE(latency["rows"].size() == 3);
    for (const char *name : {"64_lat", "4k_lat", "64k_lat"}) {
        INFO(name);
        const json *row = find_row(latency, name);
        REQUIRE(row);
        CHECK((*row)["metrics"]["iters"]["value"] == 200);
        CHECK((*row)["histograms"]["rtt"]["count"] == 200);
    }
    CHECK((*by_name["latency/verbs"])["params"]["iterations"] == "200");
    REQUIRE(by_name.count("bandwidth/tcp"));
    const json &bandwidth = *by_name["bandwidth/tcp"];
    CHECK(bandwidth["params"]["duration"] == "0.3");
    CHECK((*by_name["bandwidth/verbs"])["params"]["duration"] == "0.3");
    REQUIRE(bandwidth["rows"].size() == 3);
    for (const auto &row : bandwidth["rows"]) {
        INFO(row["name"]);
        CHECK(row["metrics"]["Gb/sec"]["value"] > 0);
        CHECK(row["metrics"]["time"]["value"] < 1.0); // the file says 1.0 s
    }
    REQUIRE(by_name.count("connect/tcp"));
    const json *full = find_row(*by_name["connect/tcp"], "full connect");
    REQUIRE(full);
    CHECK((*full)["metrics"]["conns"]["value"] == 50);

    // With --allow-skip the same is a success, and the comparison at the end
    // has the tcp column filled, the rsocket and verbs columns empty, and
    // says why.
    argv.push_back("--allow-skip");
    r = run_process(argv, 300);
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, !Catch::Contains("skipped"));
    const size_t at = r.out.find("== comparison (baseline tcp)");
    REQUIRE(at != std::string::npos);
    const std::string table = r.out.substr(at);
    for (const char *group : {"\nlatency\n", "\nbandwidth\n", "\nconnect\n"})
        CHECK_THAT(table, Catch::Contains(group));
    // A header per group, with the three columns and the two ratios.
    const std::regex header(
        "\\n  item +metric +unit +tcp +rsocket +verbs +rsocket/tcp +verbs/tcp\\n");
    CHECK(std::distance(std::sregex_iterator(table.begin(), table.end(), header),
                        std::sregex_iterator()) == 3);
    const std::vector<std::string> rows = comparison_rows(table);
    // Every row: a tcp value, rsocket and verbs missing, no ratios.
    const std::regex tcp_only(" [0-9][0-9.]* +- +- +- +-$");
    std::set<std::string> seen;
    for (const auto &line : rows) {
        INFO(line);
        CHECK(std::regex_search(line, tcp_only));
        std::istringstream words(line);
        std::string item;
        words >> item;
        seen.insert(item);
    }
    // p50 and p99 of 3 sizes, 3 bandwidths and CPU/GB, the connection rate,
    // the steps sock-steps times and CPU/connection.
    CHECK(rows.size() >= 6 + 4 + 3);
    for (const char *item :
         {"64_lat", "4k_lat", "64k_lat", "4k", "64k", "1m", "whole", "full", "create", "destroy"})
        CHECK(seen.count(item) == 1);
    for (const char *note :
         {"rsocket latency: skipped: no RDMA device", "rsocket bandwidth: skipped: no RDMA device",
          "verbs connect: skipped: no RDMA device", "verbs latency: skipped: needs an RDMA device:",
          "verbs bandwidth: skipped: needs an RDMA device:"})
        CHECK_THAT(table, Catch::Contains(std::string("notes:\n")) && Catch::Contains(note));
}

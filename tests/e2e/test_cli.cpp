// End to end: the real cmdbench binary, a real local server process, real
// TCP on loopback, results checked through the JSON reporter.
#include "process.hpp"
#include "serve_fixture.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <dirent.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <unistd.h>

using nlohmann::json;

namespace {

std::string write_scenario(const std::string &text) {
    std::string path = temp_dir() + "/scenario.toml";
    std::ofstream(path) << text;
    return path;
}

std::string fault_dir() {
    return std::string(CMDBENCH_BINARY_DIR) + "/tests/fixtures/fault";
}

json run_json(const std::string &scenario_text, int expect_exit = 0,
              std::vector<std::string> extra = {}) {
    std::vector<std::string> argv = {cmdbench_exe(), "run", write_scenario(scenario_text),
                                     "--format", "json"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    ProcessResult r = run_process(argv, 180);
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == expect_exit);
    return json::parse(r.out);
}

const json &metric(const json &row, const std::string &key) {
    return row.at("metrics").at(key).at("value");
}

void check_histogram_monotone(const json &h) {
    double prev = h.at("min").get<double>();
    for (const char *k : {"p50", "p90", "p99", "p99_9", "p99_99", "max"}) {
        double v = h.at(k).get<double>();
        INFO(k);
        CHECK(v >= prev);
        prev = v;
    }
}

// The children of `parent`: the local server of one cmdbench run, told apart
// from those of other tests running at the same time.
std::vector<pid_t> children_of(pid_t parent) {
    std::vector<pid_t> out;
    DIR *d = opendir("/proc");
    if (!d) return out;
    while (dirent *e = readdir(d)) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        const pid_t pid = pid_t(std::stol(e->d_name));
        std::istringstream fields(proc_stat_fields(pid));
        char state = 0;
        long ppid = 0;
        if (fields >> state >> ppid && ppid == parent) out.push_back(pid);
    }
    closedir(d);
    return out;
}

// Still there and not a zombie waiting for a parent that does not reap.
bool alive(pid_t pid) {
    const std::string fields = proc_stat_fields(pid);
    return !fields.empty() && fields[0] != 'Z';
}

} // namespace

TEST_CASE("version and help") {
    auto r = run_process({cmdbench_exe(), "--version"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::StartsWith("cmdbench "));
    r = run_process({cmdbench_exe(), "help", "run"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("--set"));
    r = run_process({cmdbench_exe(), "frobnicate"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("unknown command 'frobnicate'"));
}

TEST_CASE("bad flags name the option and the allowed range") {
    auto r = run_process({cmdbench_exe(), "serve", "--port", "70000"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("--port must be in [0, 65535], got 70000"));
    r = run_process(
        {cmdbench_exe(), "run", source_path("configs/tcp-loopback.toml"), "--format", "xml"});
    CHECK(r.exit_code == 2);
    // The list starts with these; a format registered later joins its end.
    CHECK_THAT(r.err, Catch::Contains("--format must be one of table, json, csv"));
    CHECK_THAT(r.err, Catch::Contains(" (got 'xml')"));
}

TEST_CASE("plugins lists transports, tests and typed parameters") {
    auto r = run_process({cmdbench_exe(), "plugins", "--json"});
    REQUIRE(r.exit_code == 0);
    json doc = json::parse(r.out);
    bool tcp = false, pingpong = false;
    for (const auto &p : doc["plugins"]) {
        for (const auto &t : p["transports"])
            tcp |= t["name"] == "tcp";
        for (const auto &t : p["tests"])
            if (t["name"] == "pingpong") {
                pingpong = true;
                bool sizes = false;
                for (const auto &prm : t["params"])
                    if (prm["name"] == "sizes") {
                        sizes = true;
                        CHECK(prm["type"] == "int list");
                        CHECK(prm["min"] == 1);
                    }
                CHECK(sizes);
            }
    }
    CHECK(tcp);
    CHECK(pingpong);
    CHECK(doc["refused"].empty());
    r = run_process({cmdbench_exe(), "plugins"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("transport tcp"));
}

TEST_CASE("pingpong over tcp: one row per size, counts and monotone percentiles") {
    // 10,000 round trips: enough for every percentile up to p99.99.
    json doc = run_json(R"(
[[run]]
test = "pingpong"
transport = "tcp"
sizes = [64, 4096]
iterations = 10000
)");
    CHECK(doc["schema_version"] == 4);
    CHECK(doc["context"].contains("kernel"));
    REQUIRE(doc["runs"].size() == 1);
    const json &run = doc["runs"][0];
    CHECK(run["status"] == "ok");
    REQUIRE(run["rows"].size() == 2);
    CHECK(run["rows"][0]["name"] == "64_lat");
    CHECK(run["rows"][1]["name"] == "4k_lat");
    CHECK(metric(run["rows"][0], "bytes") == 64);
    CHECK(metric(run["rows"][1], "bytes") == 4096);
    for (const auto &row : run["rows"]) {
        CHECK(metric(row, "iters") == 10000);
        CHECK(metric(row, "xfers") == 1);
        CHECK(metric(row, "total") == 2 * metric(row, "bytes").get<double>() * 10000);
        CHECK(metric(row, "Gb/sec").get<double>() > 0);
        const json &rtt = row["histograms"]["rtt"];
        CHECK(rtt["count"] == 10000);
        check_histogram_monotone(rtt);
        // usec/xfer is half a round trip: it must sit near the histogram's mean.
        double mean_us = rtt["mean"].get<double>() / 1000;
        CHECK(metric(row, "usec/xfer").get<double>() == Approx(mean_us / 2).epsilon(0.2));
    }
}

TEST_CASE("pingpong bandwidth, blocking and async modes, and verify all pass over tcp") {
    json doc = run_json(R"(
[defaults]
transport = "tcp"
[[run]]
name = "bw"
test = "pingpong"
sizes = [65536]
iterations = 1
transfer_count = 200
[[run]]
name = "blocking"
test = "pingpong"
sizes = [1000]
iterations = 500
blocking = true
[[run]]
name = "async-verify"
test = "pingpong"
sizes = [1000]
iterations = 500
async = true
verify = true
)");
    REQUIRE(doc["runs"].size() == 3);
    for (const auto &run : doc["runs"]) {
        INFO(run["name"] << ": " << run["error"]);
        CHECK(run["status"] == "ok");
        REQUIRE(run["rows"].size() == 1);
    }
    CHECK(doc["runs"][0]["rows"][0]["name"] == "64k_bw");
    CHECK(metric(doc["runs"][0]["rows"][0], "xfers") == 200);
}

TEST_CASE("throughput streams one way and reports the receiver's bytes") {
    json doc = run_json(R"(
[[run]]
test = "throughput"
transport = "tcp"
sizes = [65536]
duration = 0.5
)");
    const json &run = doc["runs"][0];
    REQUIRE(run["status"] == "ok");
    REQUIRE(run["rows"].size() == 1);
    const json &row = run["rows"][0];
    CHECK(metric(row, "total").get<double>() > 1e6);
    CHECK(metric(row, "time").get<double>() > 0.3);
    CHECK(metric(row, "Gb/sec").get<double>() > 0);
}

TEST_CASE("verify catches a corrupted byte and the run fails with the offset") {
    std::vector<std::string> argv = {cmdbench_exe(),
                                     "run",
                                     write_scenario(R"(
[[run]]
test = "pingpong"
transport = "tcp-corrupt"
sizes = [1000]
iterations = 100
verify = true
)"),
                                     "--format",
                                     "json",
                                     "--plugin-dir",
                                     fault_dir()};
    auto r = run_process(argv);
    INFO(r.err);
    CHECK(r.exit_code == 1);
    json doc = json::parse(r.out);
    CHECK(doc["runs"][0]["status"] == "failed");
    CHECK_THAT(doc["runs"][0]["error"].get<std::string>(),
               Catch::Contains("data verification failed byte"));
}

TEST_CASE(
    "the same corruption goes unnoticed without verify (the fixture really corrupts quietly)") {
    auto r = run_process({cmdbench_exe(), "run", write_scenario(R"(
[[run]]
test = "pingpong"
transport = "tcp-corrupt"
sizes = [1000]
iterations = 100
)"),
                          "--format", "json", "--plugin-dir", fault_dir()});
    CHECK(r.exit_code == 0);
}

TEST_CASE("a scenario error gives file:line:column and exit 2 before anything runs") {
    std::string path =
        write_scenario("[[run]]\ntest = \"pingpong\"\ntransport = \"tcp\"\nsizse = [64]\n");
    auto r = run_process({cmdbench_exe(), "run", path});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::StartsWith(path + ":4:1: unknown key 'sizse'"));
    CHECK(r.out.empty());
}

TEST_CASE("a --set override changes a parameter in every run") {
    json doc = run_json(R"(
[[run]]
test = "pingpong"
transport = "tcp"
sizes = [64, 128, 256]
iterations = 100
)",
                        0, {"--set", "sizes=[512]"});
    REQUIRE(doc["runs"][0]["rows"].size() == 1);
    CHECK(metric(doc["runs"][0]["rows"][0], "bytes") == 512);
}

TEST_CASE("a failing run is reported and the next run still runs") {
    auto r = run_process({cmdbench_exe(), "run", write_scenario(R"(
[[run]]
test = "fail"
[[run]]
test = "pingpong"
transport = "tcp"
sizes = [64]
iterations = 100
)"),
                          "--format", "json", "--plugin-dir", fault_dir()});
    CHECK(r.exit_code == 1);
    json doc = json::parse(r.out);
    REQUIRE(doc["runs"].size() == 2);
    CHECK(doc["runs"][0]["status"] == "failed");
    CHECK_THAT(doc["runs"][0]["error"].get<std::string>(),
               Catch::Contains("fixture failure on purpose"));
    CHECK(doc["runs"][1]["status"] == "ok");
}

TEST_CASE("a hung test is stopped by its timeout and earlier results are kept") {
    std::string dir = temp_dir();
    std::string out = dir + "/results.json";
    auto r = run_process({cmdbench_exe(), "run", write_scenario(R"(
[[run]]
test = "pingpong"
transport = "tcp"
sizes = [64]
iterations = 100
[[run]]
test = "hang"
timeout = 1
)"),
                          "-o", out, "--plugin-dir", fault_dir()},
                         60);
    CHECK(r.exit_code == 1);
    CHECK(r.seconds < wall_bound(20));
    json doc = json::parse(read_file(out));
    REQUIRE(doc["runs"].size() == 2);
    CHECK(doc["runs"][0]["status"] == "ok");
    CHECK(doc["runs"][0]["rows"].size() == 1);
    CHECK(doc["runs"][1]["status"] == "timeout");
    CHECK_THAT(r.out, Catch::Contains("64_lat"));
}

// A quick run, then one of 60 s that a signal stops in its middle.
const char *const kQuickThenLong = R"(
[[run]]
name = "quick"
test = "pingpong"
transport = "tcp"
sizes = [64]
iterations = 100
[[run]]
name = "long"
test = "throughput"
transport = "tcp"
sizes = [65536]
duration = 60
)";

TEST_CASE("Ctrl-C prints the results so far, exits non-zero and stops the server") {
    std::string dir = temp_dir();
    std::string scenario = write_scenario(kQuickThenLong);
    pid_t pid = start_process({cmdbench_exe(), "run", scenario, "--format", "json"}, dir + "/out",
                              dir + "/err");
    std::this_thread::sleep_for(std::chrono::seconds(3));
    const std::vector<pid_t> servers = children_of(pid);
    kill(pid, SIGINT);
    int code = wait_process(pid, 30);
    INFO(read_file(dir + "/err"));
    CHECK(code == 130);
    CHECK(servers.size() == 1); // the local server
    json doc = json::parse(read_file(dir + "/out"));
    REQUIRE(doc["runs"].size() == 2);
    CHECK(doc["runs"][0]["status"] == "ok");
    CHECK(doc["runs"][1]["status"] == "interrupted");
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    CHECK_FALSE(process_running_with(scenario));
    for (pid_t server : servers)
        CHECK_FALSE(alive(server));
}

TEST_CASE("SIGHUP to the job stops cmdbench run as Ctrl-C does: results kept, server stopped") {
    std::string dir = temp_dir();
    std::string scenario = write_scenario(kQuickThenLong);
    const std::string results = dir + "/results.json";
    pid_t pid = start_process({cmdbench_exe(), "run", scenario, "--format", "json", "-o", results},
                              dir + "/out", dir + "/err");
    // -o is rewritten after each run: once it holds "quick", "long" is next.
    const auto t0 = std::chrono::steady_clock::now();
    while (read_file(results).find("\"quick\"") == std::string::npos && seconds_since(t0) < 60)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const std::vector<pid_t> servers = children_of(pid);
    // A closed terminal hangs up the whole job: the client and its server.
    REQUIRE(kill(-pid, SIGHUP) == 0);
    int code = wait_process(pid, 30);
    const std::string err = read_file(dir + "/err");
    INFO(err);
    CHECK(code == 130);
    CHECK_THAT(err, Catch::Contains("cmdbench: hung up (SIGHUP: the terminal or session closed), "
                                    "stopping"));
    // The local server leaves the stopping to the client, as on Ctrl-C.
    CHECK_THAT(err, !Catch::Contains("cmdbench serve: hung up"));
    CHECK(servers.size() == 1); // the local server
    for (const std::string &doc_text : {read_file(dir + "/out"), read_file(results)}) {
        json doc = json::parse(doc_text);
        REQUIRE(doc["runs"].size() == 2);
        CHECK(doc["runs"][0]["status"] == "ok");
        CHECK(doc["runs"][0]["rows"].size() == 1);
        CHECK(doc["runs"][1]["status"] == "interrupted");
    }
    for (pid_t server : servers)
        CHECK_FALSE(alive(server));
}

TEST_CASE("cmdbench serve serves clients that name it, and survives garbage") {
    // A port the kernel just gave out, and a wait for "listening on": a port
    // made from the pid could be some other test's connection (CI failed so).
    ServeProcess server({"--bind", "127.0.0.1"});
    const int port = server.port();
    // A client that speaks garbage is dropped...
    auto junk = run_process({"/bin/bash", "-c",
                             "printf 'GET / HTTP/1.0\\r\\n\\r\\n' > /dev/tcp/127.0.0.1/" +
                                 std::to_string(port) + " 2>/dev/null; exit 0"});
    (void)junk;
    // ...and the next real one is served.
    auto r = run_process({cmdbench_exe(), "run", write_scenario(R"(
[[run]]
test = "pingpong"
transport = "tcp"
sizes = [64]
iterations = 200
)"),
                          "--server", "127.0.0.1:" + std::to_string(port), "--format", "json"});
    const int server_code = server.stop();
    INFO(r.err << server.err());
    REQUIRE(r.exit_code == 0);
    CHECK(json::parse(r.out)["runs"][0]["rows"][0]["histograms"]["rtt"]["count"] == 200);
    CHECK(server_code == 130);
}

TEST_CASE("run --server against nothing fails clearly and quickly") {
    auto r = run_process({cmdbench_exe(), "run", write_scenario(R"(
[[run]]
test = "pingpong"
transport = "tcp"
sizes = [64]
)"),
                          "--server", "127.0.0.1:1", "--format", "json"},
                         60);
    CHECK(r.exit_code == 1);
    CHECK(r.seconds < wall_bound(15));
    CHECK_THAT(json::parse(r.out)["runs"][0]["error"].get<std::string>(),
               Catch::Contains("127.0.0.1"));
}

TEST_CASE("the default scenario runs and prints rstream's columns and percentiles", "[busy-poll]") {
    // A generous run timeout: busy-polling peers under a sanitizer on a busy
    // 2-core machine can be ten times slower than the scenario expects.
    auto r = run_process({cmdbench_exe(), "run", source_path("configs/tcp-loopback.toml"),
                          "--quiet", "--set", "timeout=1200"},
                         1500);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    for (const char *col :
         {"name", "bytes", "xfers", "iters", "total", "time", "Gb/sec", "usec/xfer", "p99"})
        CHECK_THAT(r.out, Catch::Contains(col));
    CHECK_THAT(r.out, Catch::Contains("64_lat"));
    CHECK_THAT(r.out, Catch::Contains("1m_bw"));
    // The histogram columns (min p50 p90 p99 p99.9 max) of a row.
    const auto hist_cells = [&](const std::string &row) {
        const size_t at = r.out.find("\n" + row + " ");
        std::istringstream in(r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1));
        std::vector<std::string> w;
        for (std::string x; in >> x;)
            w.push_back(x);
        return w.size() < 6 ? w : std::vector<std::string>(w.end() - 6, w.end());
    };
    // rstream's latency phase: 100k round trips of 64 bytes, every percentile.
    for (const auto &cell : hist_cells("64_lat"))
        CHECK(cell != "-");
    // Its bandwidth phase times one burst per size: a median, not a p99.
    const auto bw = hist_cells("1m_bw");
    REQUIRE(bw.size() == 6);
    CHECK(bw[1] == bw[0]);
    CHECK(bw[5] == bw[0]);
    CHECK(std::vector<std::string>(bw.begin() + 2, bw.begin() + 5) ==
          std::vector<std::string>{"-", "-", "-"});
}

TEST_CASE("an installed tree finds its plugins next to the executable") {
    std::string prefix = temp_dir() + "/prefix";
    auto inst =
        run_process({"/usr/bin/cmake", "--install", CMDBENCH_BINARY_DIR, "--prefix", prefix});
    INFO(inst.out << inst.err);
    REQUIRE(inst.exit_code == 0);
    auto r = run_process({prefix + "/bin/cmdbench", "plugins", "--json"});
    REQUIRE(r.exit_code == 0);
    json doc = json::parse(r.out);
    // Every plugin of the build tree, and each from the installed tree.
    auto built = run_process({cmdbench_exe(), "plugins", "--json"});
    REQUIRE(built.exit_code == 0);
    REQUIRE(doc["plugins"].size() == json::parse(built.out)["plugins"].size());
    REQUIRE(doc["plugins"].size() >= 2);
    for (const auto &p : doc["plugins"])
        CHECK_THAT(p["file"].get<std::string>(), Catch::StartsWith(prefix + "/lib"));
}

TEST_CASE("CMDBENCH_PLUGIN_PATH and a scenario's plugins list add plugins") {
    auto r = run_process({cmdbench_exe(), "plugins", "--json"}, 60,
                         {"CMDBENCH_PLUGIN_PATH=/nonexistent:" + fault_dir()});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("\"tcp-corrupt\""));

    std::string dir = temp_dir();
    std::string scenario = dir + "/s.toml";
    std::ofstream(scenario) << "plugins = [\"" << fault_dir() << "\"]\n[[run]]\ntest = \"fail\"\n";
    r = run_process({cmdbench_exe(), "run", scenario, "--format", "json"});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.out, Catch::Contains("fixture failure on purpose"));
}

TEST_CASE("two files registering the same name stop the run, naming both") {
    std::string dir = temp_dir();
    std::string copy = dir + "/copy-of-tcp.so";
    auto cp = run_process(
        {"/bin/cp",
         std::string(CMDBENCH_BINARY_DIR) + "/lib/cmdbench/plugins/cmdbench-tcp-socket.so", copy});
    REQUIRE(cp.exit_code == 0);
    auto r = run_process(
        {cmdbench_exe(), "run", source_path("configs/tcp-loopback.toml"), "--plugin-dir", dir});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("cmdbench-tcp-socket.so"));
    CHECK_THAT(r.err, Catch::Contains(copy));
    CHECK(r.out.empty());
}

TEST_CASE("a file that is not a plugin in the plugin path is refused by name") {
    auto r = run_process({cmdbench_exe(), "plugins", "--plugin-dir",
                          std::string(CMDBENCH_BINARY_DIR) + "/tests/fixtures/not_elf.so"});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains("not_elf.so: not a loadable shared object"));
}

TEST_CASE("cmdbench plugins: the listing on stdout, each refusal on stderr") {
    const std::string not_elf = std::string(CMDBENCH_BINARY_DIR) + "/tests/fixtures/not_elf.so";
    auto r = run_process({cmdbench_exe(), "plugins", "--plugin-dir", not_elf});
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.out, Catch::Contains("test pingpong"));
    CHECK_THAT(r.out, !Catch::Contains("refused"));
    CHECK_THAT(r.err, Catch::Contains("cmdbench: plugin refused: " + not_elf + ": not a loadable"));
    // JSON: stdout is the document alone (its "refused" array included).
    r = run_process({cmdbench_exe(), "plugins", "--json", "--plugin-dir", not_elf});
    CHECK(r.exit_code == 1);
    const json doc = json::parse(r.out);
    REQUIRE(doc["refused"].size() == 1);
    CHECK(doc["refused"][0]["file"] == not_elf);
    CHECK_THAT(r.err, Catch::Contains("cmdbench: plugin refused: " + not_elf + ": not a loadable"));
}

TEST_CASE("repeat = 3 runs a run three times, each its own result") {
    json doc = run_json(R"(
[[run]]
name = "pp"
test = "pingpong"
transport = "tcp"
sizes = [64]
iterations = 100
repeat = 3
[[run]]
test = "pingpong"
transport = "tcp"
sizes = [64]
iterations = 100
)");
    REQUIRE(doc["runs"].size() == 4);
    // Repeats interleave by default: round 1 runs both, rounds 2 and 3 the
    // repeated one alone.
    const unsigned pp_at[3] = {0, 2, 3};
    for (unsigned k = 0; k < 3; ++k) {
        const json &run = doc["runs"][pp_at[k]];
        INFO("result " << pp_at[k]);
        CHECK(run["name"] == "pp");
        CHECK(run["status"] == "ok");
        CHECK(run["repeat"] == k + 1);
        CHECK(run["repeats"] == 3);
        CHECK(run["group"] == "pingpong");
        CHECK(run["variant"] == "tcp");
        CHECK(run["rows"].size() == 1);
    }
    CHECK(doc["runs"][1]["name"] != "pp");
    CHECK(doc["runs"][1]["repeat"] == 1);
    CHECK(doc["runs"][1]["repeats"] == 1);
    CHECK(doc["baseline"] == "tcp");
    // --set repeat applies like any other override.
    json again = run_json(R"(
[[run]]
test = "pingpong"
transport = "tcp"
sizes = [64]
iterations = 100
)",
                          0, {"--set", "repeat=2"});
    REQUIRE(again["runs"].size() == 2);
    CHECK(again["runs"][1]["repeat"] == 2);
}

TEST_CASE("both sides report the CPU time of a throughput run") {
    json doc = run_json(R"(
[[run]]
test = "throughput"
transport = "tcp"
sizes = [65536]
duration = 1.0
)");
    const json &run = doc["runs"][0];
    REQUIRE(run["status"] == "ok");
    const double wall = run["wall_seconds"].get<double>();
    const double cpus = doc["context"]["cpu"]["count"].get<double>();
    for (const char *side : {"client", "server"}) {
        INFO(side << ": " << run["cpu"].dump());
        const json &t = run["cpu"][side];
        REQUIRE(t.is_object());
        const double used = t["user_s"].get<double>() + t["sys_s"].get<double>();
        // Streaming for a second keeps each side busy, but no side can use
        // more than every CPU for the whole run.
        CHECK(used > 0.05);
        CHECK(used <= wall * cpus + 0.25);
        CHECK(t["user_s"].get<double>() >= 0);
        CHECK(t["sys_s"].get<double>() >= 0);
    }
    REQUIRE(run["cpu_per_gb_s"].is_number());
    CHECK(run["cpu_per_gb_s"].get<double>() > 0);
    CHECK(run["cpu_per_conn_us"].is_null());
}

TEST_CASE("a baseline that is no run's variant fails with file:line:column, exit 2") {
    std::string path = write_scenario(R"(baseline = "nope"
[[run]]
test = "pingpong"
transport = "tcp"
variant = "a"
[[run]]
test = "pingpong"
transport = "tcp"
variant = "b"
)");
    auto r = run_process({cmdbench_exe(), "run", path});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err,
               Catch::StartsWith(path + ":1:1: baseline 'nope' is not the variant of any run "
                                        "(variants: a, b)"));
    CHECK(r.out.empty());
}

TEST_CASE("Ctrl-C lists the repetitions that did not run") {
    std::string dir = temp_dir();
    std::string scenario = write_scenario(R"(
[[run]]
name = "long"
test = "throughput"
transport = "tcp"
sizes = [65536]
duration = 60
repeat = 3
)");
    pid_t pid = start_process({cmdbench_exe(), "run", scenario, "--format", "json"}, dir + "/out",
                              dir + "/err");
    std::this_thread::sleep_for(std::chrono::seconds(2));
    kill(pid, SIGINT);
    int code = wait_process(pid, 30);
    INFO(read_file(dir + "/err"));
    CHECK(code == 130);
    json doc = json::parse(read_file(dir + "/out"));
    REQUIRE(doc["runs"].size() == 3);
    for (unsigned k = 0; k < 3; ++k) {
        CHECK(doc["runs"][k]["status"] == "interrupted");
        CHECK(doc["runs"][k]["repeat"] == k + 1);
        CHECK(doc["runs"][k]["repeats"] == 3);
    }
    CHECK(doc["runs"][2]["error"] == "not run: interrupted");
    CHECK(doc["runs"][2]["cpu"]["client"].is_null());
}

TEST_CASE("on a terminal the progress line shows the run, the repetition and the last row") {
    std::string scenario = write_scenario(R"(
[[run]]
name = "pp"
test = "pingpong"
transport = "tcp"
sizes = [64, 128]
iterations = 100
repeat = 2
)");
    // script(1) gives the command a terminal; its output is what the terminal got.
    const std::string command = cmdbench_exe() + " run " + scenario + " --format csv";
    auto r = run_process({"/usr/bin/script", "-qec", command, "/dev/null"}, 120);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("\r\033[K[1/1] pp rep 1/2"));
    CHECK_THAT(r.out, Catch::Contains("[1/1] pp rep 2/2: 1/2 done, last 64_lat"));
    // --quiet: no progress line even on a terminal.
    r = run_process({"/usr/bin/script", "-qec", command + " --quiet", "/dev/null"}, 120);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, !Catch::Contains("\033[K"));
    CHECK_THAT(r.out, Catch::Contains("pp,pingpong,tcp,ok,128_lat,pingpong,tcp,2,"));
}

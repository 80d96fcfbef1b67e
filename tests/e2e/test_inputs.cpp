// End to end: every input file and address is checked before it is trusted.
// `cmdbench compare` and `cmdbench run` on malformed, hostile or endless
// inputs exit 2 with the file and the reason (never an abort, never out of
// memory), and --server is validated before anything loads or runs.
#include "process.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <tuple>
#include <vector>

namespace {

const std::string &dir() {
    static const std::string d = temp_dir();
    return d;
}

std::string write_file(const std::string &name, const std::string &text) {
    const std::string path = dir() + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// A sparse file one byte past `limit`: large on paper, cheap on disk.
std::string sparse_file(const std::string &name, uintmax_t limit) {
    const std::string path = write_file(name, "");
    std::filesystem::resize_file(path, limit + 1);
    return path;
}

ProcessResult compare(const std::string &file) {
    return run_process({cmdbench_exe(), "compare", file, file}, 60);
}

void expect_refused(const ProcessResult &r, const std::string &file, const std::string &reason) {
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(file) != std::string::npos);
    CHECK(r.err.find(reason) != std::string::npos);
    CHECK(r.out.empty());
}

// The smallest results document compare reads, with `params` spliced in.
std::string results_with_params(const std::string &params) {
    return R"({"schema": "cmdbench-results", "schema_version": 1, "context": {"host": "h"},
"runs": [{"name": "a", "test": "t", "status": "ok", "rows": [], "params": )" +
           params + "}]}";
}

const std::string kScenario = std::string(CMDBENCH_SOURCE_DIR) + "/configs/tcp-loopback.toml";

ProcessResult run_with_server(const std::string &server, const std::string &scenario) {
    return run_process({cmdbench_exe(), "run", scenario, "--server", server, "--quiet"}, 60);
}

} // namespace

TEST_CASE("compare refuses a number out of double's range with exit 2 and no abort") {
    const std::string f = write_file("overflow.json", R"({"x":1e400})");
    expect_refused(compare(f), f, "1e400");
}

TEST_CASE("compare refuses truncated JSON with its position") {
    const std::string f = write_file(
        "truncated.json", R"({"schema": "cmdbench-results", "schema_version": 1, "context": {"ho)");
    expect_refused(compare(f), f + ":1:", "not valid JSON");
}

TEST_CASE("compare refuses binary garbage") {
    const std::string f = write_file("garbage.json", std::string("\x00\xff\xfe\x01{[\"", 7));
    expect_refused(compare(f), f, "not valid JSON");
}

TEST_CASE("compare refuses JSON nested deeper than results ever are") {
    const size_t depth = 200000;
    const std::string f = write_file(
        "nested.json", results_with_params(std::string(depth, '[') + std::string(depth, ']')));
    expect_refused(compare(f), f, "nesting deeper than 64 levels");
}

// Each shape of a file of many empty objects the reader may meet: refused,
// and in time linear in its size (the parser's old depth guard rescanned the
// array at every object's end: 40 to 190 s of CPU for 400,000, against a
// tenth of a second). The bound of kLinearSeconds of CPU time is the test:
// generous for a linear parse on any machine, far too short for the old
// quadratic one; CPU time, so that a loaded machine does not stretch it.
// These huge inputs are tagged [scale]: the plain build runs them, the
// sanitized builds leave them out (tools/test.sh), where each took 10-65 s.
constexpr int kLinearSeconds = 20;
// The same for files that are read whole, not refused early: a sanitizer
// build (Debug, instrumented) reads them several times slower, and the
// quadratic steps these catch took minutes even in a plain build.
constexpr int kLinearReadSeconds = CMDBENCH_SANITIZED ? 150 : kLinearSeconds;

ProcessResult compare_in_linear_time(const std::string &file) {
    const ProcessResult r = run_process({cmdbench_exe(), "compare", file}, 10 * kLinearSeconds);
    CHECK(r.cpu_seconds < kLinearSeconds);
    return r;
}

TEST_CASE("compare refuses 400,000 empty objects without a quadratic parse", "[scale]") {
    const size_t n = 400000;
    std::string objects = "{}";
    objects.reserve(3 * n);
    for (size_t i = 1; i < n; ++i)
        objects += ",{}";
    const std::string head = R"({"schema": "cmdbench-results", "schema_version": 1,
"context": {"host": "h"}, )";
    const std::string shapes[][3] = {
        {"array.json", "[" + objects + "]", "not a cmdbench results file"},
        {"runs-only.json", R"({"runs": [)" + objects + "]}", "not a cmdbench results file"},
        {"runs.json", head + R"("runs": [)" + objects + "]}",
         "runs: 400000 runs: more than the 100000 a results file may have"},
        {"rows.json",
         head + R"("runs": [{"name": "a", "test": "t", "status": "ok", "rows": [)" + objects +
             "]}]}",
         "runs[0].rows[0]: missing required field 'name'"}};
    for (const auto &[name, text, reason] : shapes) {
        INFO(name);
        const std::string f = write_file(name, text);
        expect_refused(compare_in_linear_time(f), f, reason);
    }
}

// One object of many keys: a row's metrics, a run's params. Reading each
// key looked it up among the object's keys before (nlohmann's ordered_json
// parse), and each undeclared metric looked up the row's metrics again (the
// old names' meanings): over 150 s of CPU for 160,000 metrics, against a
// quarter of a second.
TEST_CASE("compare reads an object of 200,000 keys in time linear in them", "[scale]") {
    const size_t n = 200000;
    std::string metrics, params;
    for (size_t i = 0; i < n; ++i) {
        const std::string k = std::to_string(i);
        metrics += (i ? ",\"m" : "\"m") + k + R"(": {"value": 1, "unit": "us"})";
        params += (i ? ",\"p" : "\"p") + k + R"(": 1)";
    }
    const auto file = [](const std::string &run) {
        return R"({"schema": "cmdbench-results", "schema_version": 3, "context": {"host": "h"},
"runs": [)" + run +
               "]}";
    };
    const std::string shapes[][2] = {
        {"metrics.json",
         file(R"({"name": "a", "test": "t", "status": "ok", "rows": [{"name": "r", "metrics": {)" +
              metrics + "}}]}")},
        {"params.json",
         file(R"({"name": "a", "test": "t", "status": "ok", "rows": [], "params": {)" + params +
              "}}")}};
    for (const auto &[name, text] : shapes) {
        INFO(name);
        const ProcessResult r =
            run_process({cmdbench_exe(), "compare", write_file(name, text)}, kLinearReadSeconds);
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 0);
    }
}

// A chart and a table per family of metrics, each family's rows looked up
// by a scan of its group's rows: quadratic in a row's declared metrics (48
// s of CPU for 80,000, against 2 s). The page goes to /dev/null, written in
// place, so only making it is timed.
TEST_CASE("compare --report of 80,000 metric families takes time linear in them", "[scale]") {
    std::string metrics;
    for (int i = 0; i < 80000; ++i)
        metrics += (i ? ",\"m" : "\"m") + std::to_string(i) +
                   R"(": {"value": 1, "unit": "1/s", "kind": "rate", "better": "higher"})";
    const std::string f =
        write_file("families.json", R"({"schema": "cmdbench-results", "schema_version": 3,
"context": {"host": "h"}, "runs": [{"name": "a", "test": "t", "status": "ok",
"rows": [{"name": "r", "metrics": {)" + metrics +
                                        "}}]}]}");
    const ProcessResult r =
        run_process({cmdbench_exe(), "compare", f, "--report", "/dev/null"}, kLinearReadSeconds);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
}

// A matrix document whose pairs share a section (matrix.shared): reading
// each pair copied the whole section and searched it for the pair's name,
// quadratic in the names: 52 s of CPU for 8,000 pairs, against 0.2 s.
TEST_CASE("compare reads a matrix document of 20,000 run names in time linear in them", "[scale]") {
    std::string shared, runs;
    for (int i = 0; i < 20000; ++i) {
        const std::string name = "\"r" + std::to_string(i) + "\"";
        shared += (i ? "," : "") + name + R"(: {"params": {"sizes": "[64]"}, "histograms": {},
  "metrics": {"m": {"unit": "us", "kind": "duration", "better": "lower"}}})";
        runs += (i ? ",\n" : "") + std::string(R"({"name": )") + name +
                R"(, "test": "t", "status": "ok", "rows": [{"name": "x", "metrics": {"m":
  {"value": 1}}}], "pair": {"client": 0, "server": 1}})";
    }
    const std::string f =
        write_file("matrix.json", R"({"schema": "cmdbench-results", "schema_version": 3,
"context": {"host": "h"}, "matrix": {"pattern": "all", "ranks": [{"rank": 0}, {"rank": 1}],
"shared": {"runs": {)" + shared + R"(}, "paths": []}}, "runs": [)" +
                                      runs + "]}");
    const ProcessResult r = run_process({cmdbench_exe(), "compare", f}, kLinearReadSeconds);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
}

TEST_CASE("compare refuses a results file with more rows than any run writes", "[scale]") {
    const size_t n = 1000001;
    std::string rows;
    rows.reserve(3 * n);
    for (size_t i = 0; i < n; ++i)
        rows += i ? ",{}" : "{}";
    const std::string f =
        write_file("many-rows.json",
                   R"({"schema": "cmdbench-results", "schema_version": 1, "context": {"host": "h"},
"runs": [{"name": "a", "test": "t", "status": "ok", "rows": []},
         {"name": "b", "test": "t", "status": "ok", "rows": [)" +
                       rows + "]}]}");
    expect_refused(compare_in_linear_time(f), f,
                   "runs[1].rows: 1000001 rows so far: more than the 1000000 a results "
                   "file may have");
}

TEST_CASE("compare refuses a results file over the size limit unread") {
    const std::string f = sparse_file("huge.json", 256u << 20);
    const ProcessResult r = compare(f);
    expect_refused(r, f, "larger than the 268435456-byte limit");
    CHECK(r.cpu_seconds < 10);
}

TEST_CASE("compare on /dev/zero stops at the size limit") {
    const ProcessResult r = compare("/dev/zero");
    expect_refused(r, "/dev/zero", "larger than the 268435456-byte limit");
    CHECK(r.cpu_seconds < 30);
}

TEST_CASE("run on /dev/zero stops at the scenario size limit") {
    const ProcessResult r = run_process({cmdbench_exe(), "run", "/dev/zero"}, 60);
    expect_refused(r, "/dev/zero", "larger than the 16777216-byte limit");
    CHECK(r.cpu_seconds < 10);
}

TEST_CASE("run refuses an oversized scenario file unread") {
    const std::string f = sparse_file("huge.toml", 16u << 20);
    const ProcessResult r = run_process({cmdbench_exe(), "run", f}, 60);
    expect_refused(r, f, "larger than the 16777216-byte limit");
    CHECK(r.cpu_seconds < 10);
}

TEST_CASE("run reads a scenario from a pipe and bounds what it reads from one") {
    const std::string good = write_file("piped.toml", "[[run]]\ntest = \"pingpong\"\n"
                                                      "transport = \"tcp\"\nsizes = [64]\n"
                                                      "iterations = 10\ntimeout = 60\n");
    ProcessResult r = run_process(
        {"/bin/bash", "-c", "exec \"$0\" run <(cat \"$1\") --quiet", cmdbench_exe(), good}, 120);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);

    r = run_process(
        {"/bin/bash", "-c", "exec \"$0\" run <(head -c 20000000 /dev/zero)", cmdbench_exe()}, 60);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("larger than the 16777216-byte limit") != std::string::npos);
}

TEST_CASE("run --server refuses a bad address before anything loads or runs") {
    const char *bad[][2] = {{":99999", "port 99999 is out of range"},
                            {"localhost:99999", "port 99999 is out of range"},
                            {"localhost:abc", "port 'abc' is not a number"},
                            {"localhost:0", "port 0 is out of range"},
                            {"localhost:", "the port is empty"},
                            {"localhost:+7", "port '+7' is not a number"},
                            {"[::1", "'[' without a closing ']'"},
                            {"[::1]x", "expected ':PORT' after ']'"},
                            {"[::1]:70000", "port 70000 is out of range"},
                            {":7470", "the host is empty"},
                            {"", "the host is empty"},
                            {"[]:7470", "the host is empty"}};
    for (const auto &[server, reason] : bad) {
        INFO("--server '" << server << "'");
        for (const std::string &scenario : {kScenario, dir() + "/no-such-scenario.toml"}) {
            const ProcessResult r = run_with_server(server, scenario);
            INFO("stderr: " << r.err);
            CHECK(r.exit_code == 2);
            CHECK(r.err.find("--server expects") != std::string::npos);
            CHECK(r.err.find("PORT in [1, 65535]") != std::string::npos);
            CHECK(r.err.find(reason) != std::string::npos);
            CHECK(r.out.empty());
            CHECK(r.seconds < wall_bound(10));
        }
    }
}

TEST_CASE("a scenario's server key is checked as --server is") {
    const std::string f = write_file("bad-server.toml", "[[run]]\ntest = \"pingpong\"\n"
                                                        "transport = \"tcp\"\nsizes = [64]\n"
                                                        "server = \"localhost:abc\"\n");
    const ProcessResult r = run_process({cmdbench_exe(), "run", f}, 60);
    expect_refused(r, f + ":5:10", "'server' expects HOST, HOST:PORT");
}

TEST_CASE("timeout = nan or inf names timeout's real range") {
    for (const std::string value : {"nan", "inf", "-inf"}) {
        INFO("timeout = " << value);
        const std::string f = write_file("timeout.toml", "[[run]]\ntest = \"pingpong\"\n"
                                                         "transport = \"tcp\"\nsizes = [64]\n"
                                                         "timeout = " +
                                                             value + "\n");
        ProcessResult r = run_process({cmdbench_exe(), "run", f}, 60);
        expect_refused(r, f + ":5:11", "'timeout' must be > 0 and <= 86400 seconds, got " + value);
        CHECK(r.err.find("[-inf, inf]") == std::string::npos);

        r = run_process({cmdbench_exe(), "run", kScenario, "--set", "timeout=" + value}, 60);
        expect_refused(r, "--set timeout=" + value,
                       "'timeout' must be > 0 and <= 86400 seconds, got " + value);
    }
}

TEST_CASE("a float parameter refuses nan and inf with its declared range") {
    const ProcessResult r =
        run_process({cmdbench_exe(), "run", kScenario, "--set", "duration=inf"}, 60);
    expect_refused(r, "--set duration=inf", "'duration' must be in [0, 3600], got inf");
}

TEST_CASE("serve --bind with no address is refused, never a listener on every interface") {
    for (const std::string bind : {"", ",", " ", " , ,"}) {
        INFO("--bind '" << bind << "'");
        const ProcessResult r =
            run_process({cmdbench_exe(), "serve", "--bind", bind, "--port", "0", "--once"}, 10);
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("--bind names no address") != std::string::npos);
        CHECK(r.err.find("0.0.0.0 or ::") != std::string::npos);
    }
}

TEST_CASE("run refuses keys and headers of 50,000 segments at their position, never crashing") {
    std::string key = "a";
    for (int i = 1; i < 50000; ++i)
        key += ".a";
    const std::string in_run =
        "[[run]]\ntest = \"pingpong\"\ntransport = \"tcp\"\nx." + key + " = 1\n";
    const std::string header = "[" + key + "]\n";
    for (const auto &[name, text, position] : {std::tuple{"deep-key.toml", in_run, ":4:64: "},
                                               {"deep-header.toml", header, ":1:65: "}}) {
        const std::string file = write_file(name, text);
        const ProcessResult r = run_process({cmdbench_exe(), "run", file}, 60);
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 2);
        CHECK(r.err.find(file + position + "a dotted key has more than 32 segments") !=
              std::string::npos);
    }
    // The same inside a value given with --set (under the 64 KiB a value may have).
    const std::string shorter = key.substr(0, 40000);
    const ProcessResult r = run_process(
        {cmdbench_exe(), "run", kScenario, "--set", "sizes={" + shorter + " = 1}", "--quiet"}, 60);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("'sizes'") != std::string::npos);
    CHECK(r.err.find("more than 32 segments") != std::string::npos);
}

TEST_CASE("a scenario or token file that is a FIFO with no writer is given up on, not waited for") {
    const std::string fifo = dir() + "/no-writer";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    // Both at once: each waits the same bounded time.
    const pid_t run =
        start_process({cmdbench_exe(), "run", fifo}, dir() + "/run.out", dir() + "/run.err");
    const pid_t serve =
        start_process({cmdbench_exe(), "serve", "--port", "0", "--token-file", fifo},
                      dir() + "/serve.out", dir() + "/serve.err");
    const int run_code = wait_process(run, 30);
    const int serve_code = wait_process(serve, 30);
    const std::string run_err = read_file(dir() + "/run.err");
    const std::string serve_err = read_file(dir() + "/serve.err");
    INFO("run: " << run_err << "serve: " << serve_err);
    CHECK(run_code == 2);
    CHECK(run_err.find(fifo + ": nothing to read for 10 s") != std::string::npos);
    CHECK(serve_code == 2);
    CHECK(serve_err.find("--token-file: '" + fifo + "': nothing to read for 10 s") !=
          std::string::npos);
}

// Strings of a results file are the writer's (a plugin's names, a peer's
// error texts, or anyone's edit): in the table and in messages their
// control characters are shown as escapes, never sent to the terminal.
// ESC in JSON text is \u001b; \u009b is CSI as a C1 control.
TEST_CASE("compare prints no terminal escapes from a results file") {
    const std::string esc = R"(\u001b[31m\u009b)";
    const std::string row = R"({"name": "item)" + esc + R"(", "metrics": {
  "bytes": {"value": 64, "unit": "bytes", "kind": "bytes", "better": "none", "flags": ["message_size"]},
  "m)" + esc + R"(": {"value": 2, "unit": "us", "kind": "duration", "better": "lower"}},
  "histograms": {"h)" + esc +
                            R"(": {"count": 1, "min": 1000, "max": 1000, "p50": 1000,
                   "p99": 1000, "kind": "latency", "better": "lower"}}})";
    const auto run = [&](const std::string &name, const std::string &variant,
                         const std::string &status, const std::string &error,
                         const std::string &rows) {
        return R"({"name": ")" + name + R"(", "test": "t", "transport": "tcp", "group": "g)" + esc +
               R"(", "variant": ")" + variant + R"(", "status": ")" + status + R"(", "error": ")" +
               error + R"(", "rows": [)" + rows + "]}";
    };
    const std::string head = R"({"schema": "cmdbench-results", "schema_version": 1,
"context": {"host": "h)" + esc +
                             R"(", "plugins": [{"name": "p)" + esc + R"(", "abi": "1.2"}]},
"baseline": "tcp", "runs": [)";
    const std::string good =
        write_file("escapes.json", head + run("r" + esc, "tcp", "ok", "", row) + "," +
                                       run("r2", "v" + esc, "ok", "", row) + "," +
                                       run("r3" + esc, "w", "failed", "e" + esc, "") + "," +
                                       run("r4", "x", "odd" + esc, "", "") + "]}");
    // Refused files whose messages carry the file's text: a key in a field
    // path, and a plugin's ABI string.
    const std::string bad_key = write_file(
        "escapes-key.json",
        head + run("r", "tcp", "ok", "", R"({"name": "i", "metrics": {"k)" + esc + R"(": {}}})") +
            "]}");
    const std::string bad_abi =
        write_file("escapes-abi.json", R"({"schema": "cmdbench-results", "schema_version": 1,
"context": {"host": "h", "plugins": [{"name": "p", "abi": "x)" +
                                           esc + R"("}]}, "runs": []})");
    const std::string html = dir() + "/escapes.html";
    const std::vector<std::vector<std::string>> invocations = {
        {cmdbench_exe(), "compare", good, "--report", html},
        {cmdbench_exe(), "compare", good, "--common"},
        {cmdbench_exe(), "compare", good, "--baseline", "nothing"},
        {cmdbench_exe(), "compare", good, "--format", "json"},
        {cmdbench_exe(), "compare", bad_key},
        {cmdbench_exe(), "compare", bad_abi}};
    std::string all;
    for (const auto &argv : invocations) {
        const ProcessResult r = run_process(argv, 60);
        std::string command;
        for (size_t i = 1; i < argv.size(); ++i)
            command += argv[i] + " ";
        INFO(command << "\nstdout:\n" << r.out << "\nstderr:\n" << r.err);
        CHECK(r.exit_code != -1);
        CHECK(r.out.find('\x1b') == std::string::npos);
        CHECK(r.err.find('\x1b') == std::string::npos);
        if (argv.back() != "json") { // JSON output is JSON-escaped; U+009B is valid there
            CHECK(r.out.find("\xc2\x9b") == std::string::npos);
            CHECK(r.err.find("\xc2\x9b") == std::string::npos);
        }
        all += r.out + r.err;
    }
    // What was escaped was still shown: the table, the notes, the messages.
    for (const std::string shown :
         {"g\\x1b[31m\\xc2\\x9b", "item\\x1b[31m", "m\\x1b[31m", "v\\x1b[31m", "e\\x1b[31m",
          "status 'odd\\x1b[31m", "metrics.k\\x1b[31m", "\"x\\x1b[31m"}) {
        INFO(shown);
        CHECK(all.find(shown) != std::string::npos);
    }
    const std::string page = read_file(html);
    CHECK(page.find('\x1b') == std::string::npos);
}

// 4,000 runs of 60 expect keys each, 58 of them on metrics no row has: a
// quarter of a million verdicts from a 5 MB file.
std::string many_verdicts() {
    std::string keys, runs;
    for (int k = 0; k < 60; ++k)
        keys += (k ? ", \"m" : "\"m") + std::to_string(k) + R"(": {"min": 0.5})";
    for (int i = 0; i < 4000; ++i)
        runs += (i ? ",\n" : "") + std::string(R"({"name": "r)") + std::to_string(i / 2) +
                R"(", "test": "t", "variant": ")" + (i % 2 ? "rdma" : "tcp") + R"(", "group": "g)" +
                std::to_string(i / 2) + R"(", "status": "ok",
  "rows": [{"name": "r0", "metrics": {"m0": {"value": 1, "unit": "1/s", "kind": "rate",
  "better": "higher"}, "m1": {"value": 2, "unit": "1/s", "kind": "rate", "better": "higher"}}}],
  "expect": {)" +
                keys + "}}";
    return R"({"schema": "cmdbench-results", "schema_version": 3, "context": {"host": "h"},
"baseline": "tcp", "runs": [)" +
           runs + "]}";
}

// Memory running out is a message and exit status 2 wherever it happens:
// here while reading, and in the verdicts, which were judged outside the
// command's error handling and all held at once (370 MB for this file, 820
// MB for its JSON; an abort under `ulimit -v`). RLIMIT_AS is the limit;
// sanitizer builds reserve terabytes of address space, so tests/CMakeLists.txt
// runs this case in plain builds only.
TEST_CASE("compare out of memory says so and exits 2, never aborts", "[address-space]") {
    const std::string f = write_file("verdicts.json", many_verdicts());
    const auto compare_in = [&](const char *limit, const char *format) {
        return run_process(
            {"/usr/bin/prlimit", limit, "--", cmdbench_exe(), "compare", f, "--format", format},
            120);
    };
    for (const char *limit : {"--as=40000000", "--as=60000000"}) {
        INFO(limit);
        const ProcessResult r = compare_in(limit, "table");
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("out of memory") != std::string::npos);
        CHECK(r.err.find("uncaught") == std::string::npos);
        CHECK(r.err.find("crashed") == std::string::npos);
    }
    // Enough for the file: the verdicts are judged one at a time, so they fit too.
    for (const char *format : {"table", "json", "markdown"}) {
        INFO(format);
        const ProcessResult r = compare_in("--as=250000000", format);
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == 3);
        CHECK(r.out.find("232000 of 240000 expectations could not be judged") != std::string::npos);
    }
}

// The most runs a file may have, each its own group, compared with itself:
// every step after reading must be linear too. Looking each group up in a
// list of groups, and scanning every input's runs for each group, made it
// quadratic: over 150 s of CPU, against 4 s. Tagged [scale]: the plain build
// runs it; sanitized it takes 1-2.5 minutes of the suite for no new finding.
TEST_CASE("compare of 100,000 groups takes time linear in them", "[scale]") {
    std::string runs;
    for (size_t i = 0; i < 100000; ++i)
        runs += std::string(i ? "," : "") + R"({"name": "r", "test": "t", "group": "g)" +
                std::to_string(i) + R"(", "variant": "v", "status": "ok", "rows": [{"name": "i",
  "metrics": {"m": {"value": 1, "unit": "us", "kind": "duration", "better": "lower"}}}]})";
    const std::string f =
        write_file("groups.json",
                   R"({"schema": "cmdbench-results", "schema_version": 1, "context": {"host": "h"},
"runs": [)" + runs + "]}");
    const ProcessResult r =
        run_process({cmdbench_exe(), "compare", f, f}, CMDBENCH_SANITIZED ? 300 : 60);
    INFO("stderr: " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("\ng99999\n") != std::string::npos);
}

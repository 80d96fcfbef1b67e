// The plugin SDK as a third party sees it: `cmake --install` this build into
// a temporary prefix, build examples/unix-transport (C++) and
// examples/test-skeleton (C) outside the source tree against that prefix
// alone, then load and run them with the installed cmdbench.
#include "process.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <unistd.h>

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

ProcessResult run_ok(const std::vector<std::string> &argv, int timeout_s = 300,
                     const std::vector<std::string> &env = {}) {
    ProcessResult r = run_process(argv, timeout_s, env);
    std::string command;
    for (const auto &a : argv)
        command += a + " ";
    INFO(command << "\nexit " << r.exit_code << "\nstdout: " << r.out << "\nstderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    return r;
}

// A fresh installed cmdbench: what a user gets from `cmake --install`.
std::string install_cmdbench(const std::string &prefix) {
    run_ok({SDK_CMAKE, "--install", CMDBENCH_BINARY_DIR, "--prefix", prefix});
    REQUIRE(fs::exists(prefix + "/bin/cmdbench"));
    REQUIRE(fs::exists(prefix + "/" SDK_INCLUDEDIR "/cmdbench/plugin.h"));
    REQUIRE(fs::exists(prefix + "/" SDK_LIBDIR "/cmake/cmdbench/cmdbenchConfig.cmake"));
    REQUIRE(fs::exists(prefix + "/" SDK_LIBDIR "/pkgconfig/cmdbench-plugin.pc"));
    return prefix + "/bin/cmdbench";
}

std::string example_dir(const std::string &name) {
    return source_path("examples/" + name);
}

// Configure, build and install one example with find_package(cmdbench),
// warnings as errors; checks that it compiled against the installed header.
void build_with_cmake(const std::string &example, const std::string &cmdbench_prefix,
                      const std::string &build, const std::string &install_prefix) {
    run_ok({SDK_CMAKE, "-S", example_dir(example), "-B", build,
            "-DCMAKE_PREFIX_PATH=" + cmdbench_prefix, "-DCMAKE_INSTALL_PREFIX=" + install_prefix,
            "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-DCMAKE_C_FLAGS=-Werror",
            "-DCMAKE_CXX_FLAGS=-Werror", "-DCMAKE_BUILD_TYPE=Release"});
    run_ok({SDK_CMAKE, "--build", build});
    run_ok({SDK_CMAKE, "--install", build});
    const std::string commands = read_file(build + "/compile_commands.json");
    CHECK_THAT(commands, Catch::Contains(cmdbench_prefix + "/" SDK_INCLUDEDIR));
    CHECK_THAT(commands, !Catch::Contains(source_path("core/include")));
}

std::string shell(const std::string &command, const std::vector<std::string> &env) {
    return run_ok({"/bin/sh", "-c", command}, 300, env).out;
}

// What `cmdbench plugins --json` lists: transport and test names, refusals.
struct Listing {
    std::set<std::string> transports, tests;
    json refused;
};

Listing list_plugins(const std::vector<std::string> &argv) {
    json doc = json::parse(run_ok(argv, 60).out);
    Listing l;
    for (const auto &p : doc["plugins"]) {
        for (const auto &t : p["transports"])
            l.transports.insert(t["name"].get<std::string>());
        for (const auto &t : p["tests"])
            l.tests.insert(t["name"].get<std::string>());
    }
    l.refused = doc["refused"];
    return l;
}

const json &find_run(const json &doc, const std::string &name) {
    for (const auto &run : doc["runs"])
        if (run["name"] == name) return run;
    FAIL("no run named " << name);
    throw std::logic_error("unreachable");
}

// The same scenario over two transports: both complete, with the same rows
// and the same metrics, all of them positive where they measure something.
void check_same_shape(const json &a, const json &b) {
    INFO(a["name"] << " vs " << b["name"]);
    REQUIRE(a["status"] == "ok");
    REQUIRE(b["status"] == "ok");
    REQUIRE(a["rows"].size() == b["rows"].size());
    REQUIRE_FALSE(a["rows"].empty());
    for (size_t i = 0; i < a["rows"].size(); ++i) {
        const json &ra = a["rows"][i], &rb = b["rows"][i];
        CHECK(ra["name"] == rb["name"]);
        std::set<std::string> keys_a, keys_b;
        for (const auto &[key, m] : ra["metrics"].items()) {
            keys_a.insert(key);
            if (key == "Gb/sec" || key == "total" || key == "time") CHECK(m["value"] > 0);
        }
        for (const auto &[key, m] : rb["metrics"].items()) {
            keys_b.insert(key);
            if (key == "Gb/sec" || key == "total" || key == "time") CHECK(m["value"] > 0);
        }
        CHECK(keys_a == keys_b);
    }
}

std::string pair_scenario(const std::string &socket_dir, int fixed_port) {
    std::ostringstream s;
    for (const char *tp : {"tcp", "unix"}) {
        const std::string extra =
            std::string(tp) == "unix" ? "socket_dir = \"" + socket_dir + "\"\n" : "";
        s << "[[run]]\nname = \"pingpong-" << tp << "\"\ntest = \"pingpong\"\ntransport = \"" << tp
          << "\"\n"
          << extra << "sizes = [64, 65536]\niterations = 200\n";
        s << "[[run]]\nname = \"throughput-" << tp << "\"\ntest = \"throughput\"\ntransport = \""
          << tp << "\"\n"
          << extra << "sizes = [65536]\nduration = 0.5\n";
        s << "[[run]]\nname = \"connect-" << tp << "\"\ntest = \"connect-only\"\ntransport = \""
          << tp << "\"\n"
          << extra << "count = 20\n";
    }
    // A fixed port is a fixed socket file; blocking mode uses SO_RCVTIMEO.
    s << "[[run]]\nname = \"pingpong-unix-fixed\"\ntest = \"pingpong\"\ntransport = \"unix\"\n"
      << "socket_dir = \"" << socket_dir << "\"\nport = " << fixed_port
      << "\nblocking = true\nsizes = [4096]\niterations = 100\n";
    return s.str();
}

} // namespace

TEST_CASE("find_package: both examples build out of tree, load, and run like tcp") {
    const std::string tmp = temp_dir();
    const std::string cmdbench = install_cmdbench(tmp + "/cmdbench");
    build_with_cmake("unix-transport", tmp + "/cmdbench", tmp + "/build-unix", tmp + "/ext");
    build_with_cmake("test-skeleton", tmp + "/cmdbench", tmp + "/build-skeleton", tmp + "/ext");
    const std::string plugins = tmp + "/ext/" SDK_PLUGIN_SUBDIR;

    for (const char *so : {"cmdbench-unix-transport.so", "cmdbench-connect-only.so"}) {
        INFO(so);
        CHECK(exported_symbols(plugins + "/" + so) ==
              std::set<std::string>{"cmdbench_plugin_entry"});
    }

    Listing l = list_plugins({cmdbench, "plugins", "--json", "--plugin-dir", plugins});
    CHECK(l.transports.count("unix") == 1);
    CHECK(l.transports.count("tcp") == 1);
    CHECK(l.tests.count("connect-only") == 1);
    CHECK(l.refused.empty());

    const std::string sockets = tmp + "/sockets";
    fs::create_directory(sockets);
    const std::string scenario = tmp + "/compare.toml";
    std::ofstream(scenario) << pair_scenario(sockets, 40000 + getpid() % 20000);
    ProcessResult r =
        run_ok({cmdbench, "run", scenario, "--format", "json", "--plugin-dir", plugins}, 300);
    json doc = json::parse(r.out);
    REQUIRE(doc["runs"].size() == 7);
    for (const auto &run : doc["runs"]) {
        INFO(run["name"] << ": " << run["error"]);
        CHECK(run["status"] == "ok");
    }
    check_same_shape(find_run(doc, "pingpong-tcp"), find_run(doc, "pingpong-unix"));
    check_same_shape(find_run(doc, "throughput-tcp"), find_run(doc, "throughput-unix"));
    check_same_shape(find_run(doc, "connect-tcp"), find_run(doc, "connect-unix"));
    const json &connects = find_run(doc, "connect-unix")["rows"][0];
    CHECK(connects["metrics"]["connections"]["value"] == 20);
    CHECK(connects["histograms"]["connect"]["count"] == 20);
    CHECK(find_run(doc, "pingpong-unix-fixed")["status"] == "ok");

    // Every listener removed its socket file when it closed.
    CHECK(fs::is_empty(sockets));

    // A socket_dir that is not there fails the run with a one-line reason.
    const std::string bad = tmp + "/bad.toml";
    std::ofstream(bad) << "[[run]]\ntest = \"pingpong\"\ntransport = \"unix\"\n"
                          "socket_dir = \"/nonexistent/dir\"\nsizes = [64]\n";
    r = run_process({cmdbench, "run", bad, "--format", "json", "--plugin-dir", plugins}, 120);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    doc = json::parse(r.out);
    REQUIRE(doc["runs"].size() == 1);
    CHECK(doc["runs"][0]["status"] == "failed");
    CHECK_THAT(doc["runs"][0]["error"].get<std::string>(),
               Catch::Contains("socket_dir '/nonexistent/dir'") &&
                   Catch::Contains("No such file or directory"));
    // Installs and builds are large; a REQUIRE that stopped early keeps them.
    fs::remove_all(tmp);
}

TEST_CASE("pkg-config: C and C++ plugins dropped into pluginsdir are found with no options") {
    const std::string tmp = temp_dir();
    const std::string prefix = tmp + "/cmdbench";
    const std::string cmdbench = install_cmdbench(prefix);
    const std::vector<std::string> env = {"PKG_CONFIG_PATH=" + prefix +
                                          "/" SDK_LIBDIR "/pkgconfig"};

    const std::string cflags = shell("pkg-config --cflags cmdbench-plugin", env);
    CHECK_THAT(cflags, Catch::StartsWith("-I"));
    std::string pluginsdir = shell("pkg-config --variable=pluginsdir cmdbench-plugin", env);
    pluginsdir.erase(pluginsdir.find_last_not_of("\n ") + 1);
    REQUIRE(fs::exists(pluginsdir));
    CHECK(fs::equivalent(pluginsdir, prefix + "/" SDK_PLUGIN_SUBDIR));

    // As a Makefile would: the compiler, pkg-config, and the sources alone.
    const std::string skeleton = example_dir("test-skeleton"),
                      unix_tp = example_dir("unix-transport");
    shell(std::string(SDK_CC) +
              " -std=c11 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden "
              "$(pkg-config --cflags cmdbench-plugin) " +
              skeleton + "/connect_only.c " + skeleton +
              "/plugin.c -o \"$(pkg-config --variable=pluginsdir "
              "cmdbench-plugin)/cmdbench-connect-only.so\"",
          env);
    shell(std::string(SDK_CXX) +
              " -std=c++17 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden "
              "-fvisibility-inlines-hidden $(pkg-config --cflags cmdbench-plugin) " +
              unix_tp + "/unix_transport.cpp " + unix_tp + "/socket_paths.cpp " + unix_tp +
              "/plugin.cpp -Wl,--version-script=" + unix_tp +
              "/exports.map -o \"$(pkg-config --variable=pluginsdir "
              "cmdbench-plugin)/cmdbench-unix-transport.so\"",
          env);

    Listing l = list_plugins({cmdbench, "plugins", "--json"});
    CHECK(l.transports.count("unix") == 1);
    CHECK(l.tests.count("connect-only") == 1);
    CHECK(l.refused.empty());

    const std::string sockets = tmp + "/sockets";
    fs::create_directory(sockets);
    const std::string scenario = tmp + "/dropped-in.toml";
    std::ofstream(scenario) << "[defaults]\ntransport = \"unix\"\nsocket_dir = \"" << sockets
                            << "\"\n[[run]]\ntest = \"connect-only\"\ncount = 5\n"
                               "[[run]]\ntest = \"pingpong\"\nsizes = [64]\niterations = 100\n";
    json doc = json::parse(run_ok({cmdbench, "run", scenario, "--format", "json"}, 120).out);
    REQUIRE(doc["runs"].size() == 2);
    for (const auto &run : doc["runs"]) {
        INFO(run["name"] << ": " << run["error"]);
        CHECK(run["status"] == "ok");
        CHECK(run["rows"].size() == 1);
    }
    fs::remove_all(tmp);
}

namespace {

// The rows of the comparison table at the end of `cmdbench run` for one item
// (e.g. "64_lat"), one per metric.
std::vector<std::string> table_lines(const std::string &table, const std::string &item) {
    std::vector<std::string> lines;
    std::istringstream text(table);
    for (std::string line; std::getline(text, line);)
        if (line.rfind("  " + item + " ", 0) == 0) lines.push_back(line);
    return lines;
}

// The SVG figure whose title is `title`, or "" when there is none.
std::string figure(const std::string &html, const std::string &title) {
    const size_t at = html.find("aria-label=\"" + title + "\"");
    if (at == std::string::npos) return "";
    const size_t end = html.find("</figure>", at);
    return html.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

size_t count(const std::string &text, const std::string &what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

} // namespace

TEST_CASE("a third-party transport in the comparison: unix against tcp, table, JSON, HTML") {
    const std::string tmp = temp_dir();
    const std::string cmdbench = install_cmdbench(tmp + "/cmdbench");
    build_with_cmake("unix-transport", tmp + "/cmdbench", tmp + "/build-unix", tmp + "/ext");
    // Dropped in through the environment: no option names it.
    const std::vector<std::string> env = {"CMDBENCH_PLUGIN_PATH=" + tmp +
                                          "/ext/" SDK_PLUGIN_SUBDIR};

    const std::string sockets = tmp + "/sockets";
    fs::create_directory(sockets);
    const int iterations = 300;
    const std::string scenario = tmp + "/unix-vs-tcp.toml";
    std::ofstream(scenario) << "name = \"unix-vs-tcp\"\nbaseline = \"tcp\"\n"
                            << "[defaults]\ntest = \"pingpong\"\nsizes = [64, 4096]\n"
                            << "iterations = " << iterations << "\ntransfer_count = 1\n"
                            << "repeat = 2\n"
                            << "[[run]]\nname = \"pingpong/unix\"\ntransport = \"unix\"\n"
                            << "variant = \"unix\"\nsocket_dir = \"" << sockets << "\"\n"
                            << "[[run]]\nname = \"pingpong/tcp\"\ntransport = \"tcp\"\n"
                            << "variant = \"tcp\"\n";
    const std::string results = tmp + "/r.json", report = tmp + "/r.html";
    ProcessResult r =
        run_ok({cmdbench, "run", scenario, "--report", report, "-o", results}, 300, env);

    // The table at the end: a unix and a tcp value and a ratio (or "~same",
    // when the repeats' ranges overlap) on every line of both sizes.
    const size_t at = r.out.find("== comparison (baseline tcp)");
    REQUIRE(at != std::string::npos);
    const std::string table = r.out.substr(at);
    INFO("comparison:\n" << table);
    CHECK(std::regex_search(table, std::regex("\n  item +metric +unit +unix +tcp +unix/tcp\n")));
    // A value whose two repeats differ widely is marked " !" (too noisy).
    const std::regex filled(
        " [0-9][0-9.]*( \\[[0-9.]+–[0-9.]+\\])?( !)? +[0-9][0-9.]*( "
        "\\[[0-9.]+–[0-9.]+\\])?( !)? +([0-9]+(\\.[0-9]+)?x( better| worse)?|~same)$");
    for (const char *item : {"64_lat", "4k_lat"}) {
        const auto lines = table_lines(table, item);
        CHECK(lines.size() == 3); // p50, p99, bandwidth
        for (const auto &line : lines) {
            INFO(line);
            CHECK(std::regex_search(line, filled));
        }
    }
    CHECK_THAT(table, !Catch::Contains("notes:"));

    // The results: 2 repeats of each, every round trip measured and timed.
    const json doc = json::parse(read_file(results));
    CHECK(doc["runs"].size() == 4);
    std::map<std::string, std::vector<double>> p50_us; // transport/row -> per repeat
    for (const auto &run : doc["runs"]) {
        INFO(run["name"] << " repeat " << run["repeat"] << ": " << run["error"]);
        CHECK(run["status"] == "ok");
        CHECK(run["rows"].size() == 2);
        for (size_t i = 0; i < std::min<size_t>(2, run["rows"].size()); ++i) {
            const json &row = run["rows"][i];
            const double size = i == 0 ? 64 : 4096;
            const json &m = row["metrics"], &rtt = row["histograms"]["rtt"];
            INFO(row["name"]);
            CHECK(row["name"] == (i == 0 ? "64_lat" : "4k_lat"));
            CHECK(m["bytes"]["value"] == size);
            CHECK(m["iters"]["value"] == iterations);
            // rstream's total counts both directions.
            CHECK(m["total"]["value"] == 2 * size * iterations);
            CHECK(rtt["count"] == iterations);
            CHECK(rtt["p50"] > 0);
            CHECK(rtt["min"] <= rtt["p50"]);
            CHECK(rtt["p50"] <= rtt["max"]);
            // The round trips add up to (most of) the row's time: they were
            // real waits on the socket, not numbers made up.
            const double rtt_seconds = rtt["mean"].get<double>() * iterations / 1e9;
            const double seconds = m["time"]["value"];
            CHECK(rtt_seconds <= seconds * 1.01);
            CHECK(rtt_seconds >= seconds * 0.5);
            p50_us[run["transport"].get<std::string>() + "/" + row["name"].get<std::string>()]
                .push_back(rtt["p50"].get<double>() / 2 / 1000);
        }
    }
    // Every listener removed its socket file.
    CHECK(fs::is_empty(sockets));

    // `cmdbench compare` on the file: unix and tcp cells in every latency
    // row, each the median of the two repeats' p50 / 2 (p99 / 2).
    const json cmp =
        json::parse(run_ok({cmdbench, "compare", results, "--format", "json"}, 60).out);
    CHECK(cmp["columns"] == json({"unix", "tcp"}));
    CHECK(cmp["baseline"] == "tcp");
    int latency_rows = 0;
    for (const auto &row : cmp["rows"]) {
        if (row["metric"] != "latency_p50" && row["metric"] != "latency_p99") continue;
        ++latency_rows;
        INFO(row.dump());
        REQUIRE(row["cells"].size() == 2);
        for (const auto &c : row["cells"]) {
            CHECK(c["n"] == 2);
            CHECK(c["median"].get<double>() > 0);
            CHECK(c["ratio"].get<double>() > 0);
        }
        CHECK(row["cells"][1]["verdict"] == "baseline");
        CHECK(row["cells"][0]["verdict"] != "missing");
        if (row["metric"] == "latency_p50") {
            const auto &v = p50_us["unix/" + row["item"].get<std::string>()];
            CHECK(v.size() == 2);
            if (v.size() == 2)
                CHECK(row["cells"][0]["median"].get<double>() ==
                      Approx((v[0] + v[1]) / 2).epsilon(1e-3));
        }
    }
    CHECK(latency_rows == 4); // 2 sizes x (p50, p99)

    // The HTML report: the latency chart, with a line and a legend entry
    // for each transport and no value missing.
    const std::string html = read_file(report);
    const std::string chart = figure(html, "pingpong: one-way latency against message size");
    REQUIRE_FALSE(chart.empty());
    CHECK(count(chart, "<polyline") == 2);
    CHECK_THAT(chart, Catch::Contains(">unix</text>") && Catch::Contains(">tcp</text>"));
    CHECK_THAT(chart, !Catch::Contains("No value"));
    fs::remove_all(tmp);
}

namespace {

// The fenced block that follows `marker` in a guide (```lang ... ```).
std::string fenced_block(const std::string &doc, const std::string &marker,
                         const std::string &lang) {
    const size_t at = doc.find(marker);
    REQUIRE(at != std::string::npos);
    const size_t open = doc.find("```" + lang + "\n", at);
    REQUIRE(open != std::string::npos);
    const size_t body = open + 4 + lang.size();
    const size_t close = doc.find("\n```", body);
    REQUIRE(close != std::string::npos);
    return doc.substr(body, close + 1 - body);
}

} // namespace

// docs/writing-plugins.md is the first thing a plugin author copies: its
// clock.c, CMakeLists.txt and clock.toml must build, load and run as shown.
TEST_CASE("the guide's clock plugin builds out of tree, runs, and its gap is a latency") {
    const std::string tmp = temp_dir();
    const std::string cmdbench = install_cmdbench(tmp + "/cmdbench");
    const std::string guide = read_file(source_path("docs/writing-plugins.md"));
    const std::string src = tmp + "/clock-plugin";
    fs::create_directory(src);
    std::ofstream(src + "/clock.c") << fenced_block(guide, "`clock.c`:", "c");
    std::ofstream(src + "/CMakeLists.txt") << fenced_block(guide, "next to `clock.c`", "cmake");
    std::string toml = fenced_block(guide, "`clock.toml`:", "toml");
    toml.replace(toml.find("1000000"), 7, "2000"); // the guide's count, made quick
    std::ofstream(tmp + "/clock.toml") << toml;

    run_ok({SDK_CMAKE, "-S", src, "-B", src + "/build", "-DCMAKE_PREFIX_PATH=" + tmp + "/cmdbench",
            "-DCMAKE_C_FLAGS=-Wall -Wextra -Werror"});
    run_ok({SDK_CMAKE, "--build", src + "/build"});
    const std::string so = src + "/build/cmdbench-clock.so";
    CHECK(exported_symbols(so) == std::set<std::string>{"cmdbench_plugin_entry"});

    const json doc = json::parse(
        run_ok({cmdbench, "run", tmp + "/clock.toml", "--plugin-dir", so, "--format", "json"}, 120)
            .out);
    REQUIRE(doc["runs"].size() == 1);
    const json &run = doc["runs"][0];
    INFO(run.dump());
    REQUIRE(run["status"] == "ok");
    const json &row = run["rows"][0];
    CHECK(row["name"] == "clock");
    CHECK(row["metrics"]["samples"]["value"] == 2000);
    CHECK(row["histograms"]["gap"]["count"] == 2000);
    CHECK(row["histograms"]["gap"]["kind"] == "latency");

    // The guide's bad-input example, word for word.
    std::ofstream(tmp + "/bad.toml") << "[[run]]\ntest = \"clock\"\nsamples = 0\n";
    const ProcessResult bad =
        run_process({cmdbench, "run", tmp + "/bad.toml", "--plugin-dir", so}, 60);
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.err,
               Catch::Contains("bad.toml:3:11: 'samples' must be in [1, 100000000], got 0"));
    fs::remove_all(tmp);
}

// ABI 1.2 transport ergonomics through the real binary (plugins in
// tests/sdk/sock_ctx): a sock_ops transport gets its own pointer back in
// every data-path hook over real sockets between the client and its local
// server process; a transport with no data-path hooks moves real data
// through the host's libc calls; a 1.1 transport without a required hook is
// refused with the hook's name.
#include "process.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

using json = nlohmann::json;

namespace {

const std::string kPluginDir = std::string(CMDBENCH_BINARY_DIR) + "/tests/sdk/sock_ctx";
const std::string kSockCtx = kPluginDir + "/cmdbench-sock-ctx.so";
const std::string kMissingHook = kPluginDir + "/cmdbench-missing-hook.so";

// Non-blocking, polled and blocking IO, so that every hook is called.
std::string stream_runs(const std::string &transport) {
    std::ostringstream s;
    s << "[defaults]\ntransport = \"" << transport << "\"\n"
      << "[[run]]\nname = \"busy\"\ntest = \"pingpong\"\nsizes = [64, 65536]\n"
         "iterations = 200\nverify = true\n"
      << "[[run]]\nname = \"polled\"\ntest = \"pingpong\"\nsizes = [4096]\n"
         "iterations = 200\nasync = true\nverify = true\n"
      << "[[run]]\nname = \"blocking\"\ntest = \"throughput\"\nsizes = [65536]\n"
         "duration = 0.0\nbytes = 8388608\nblocking = true\n";
    return s.str();
}

json run_json(const std::string &toml_text, const std::vector<std::string> &env = {}) {
    const std::string dir = temp_dir();
    const std::string toml = dir + "/runs.toml";
    std::ofstream(toml) << toml_text;
    ProcessResult r = run_process(
        {cmdbench_exe(), "run", toml, "--format", "json", "--plugin-dir", kSockCtx}, 240, env);
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE(r.exit_code == 0);
    return json::parse(r.out);
}

const json &find_run(const json &doc, const std::string &name) {
    for (const auto &run : doc["runs"])
        if (run["name"] == name) return run;
    FAIL("no run " << name);
    static json none;
    return none;
}

// Every run ok, and its rows moved what they say (pingpong verified every
// byte it received).
void check_data_moved(const json &doc) {
    REQUIRE(doc["runs"].size() == 3);
    for (const auto &run : doc["runs"]) {
        INFO(run.dump());
        CHECK(run["status"] == "ok");
        REQUIRE_FALSE(run["rows"].empty());
        for (const auto &row : run["rows"])
            CHECK(row["metrics"].at("Gb/sec").at("value").get<double>() > 0);
    }
    CHECK(find_run(doc, "blocking")["rows"][0]["metrics"].at("total").at("value").get<double>() ==
          8388608);
}

// "fd=7 socket=1 bind=0 ... bad=0" -> {"fd": 7, "socket": 1, ...}
std::map<std::string, long> parse_line(const std::string &line) {
    std::map<std::string, long> out;
    std::istringstream words(line);
    for (std::string w; words >> w;) {
        const size_t eq = w.find('=');
        REQUIRE(eq != std::string::npos);
        out[w.substr(0, eq)] = std::stol(w.substr(eq + 1));
    }
    return out;
}

} // namespace

TEST_CASE("sock_ops: every data-path hook gets its own socket's pointer back") {
    const std::string log = temp_dir() + "/ctx-probe.log";
    const json doc = run_json(stream_runs("ctx-probe"), {"CTX_PROBE_LOG=" + log});
    check_data_moved(doc);

    // One line per closed socket, from the client and the server process.
    std::istringstream lines(read_file(log));
    std::map<std::string, long> calls;
    int sockets = 0;
    for (std::string line; std::getline(lines, line);) {
        INFO(line);
        auto s = parse_line(line);
        ++sockets;
        CHECK(s.at("bad") == 0);
        CHECK(s.at("close") == 1); // its pointer's last call
        CHECK(s.at("socket") + s.at("accept") >= 1);
        for (const auto &[hook, n] : s)
            if (hook != "fd" && hook != "bad") calls[hook] += n;
    }
    // Each run: a client socket, a listener and an accepted socket.
    CHECK(sockets >= 9);
    for (const char *hook :
         {"socket", "accept", "bind", "listen", "connect", "send", "recv", "poll", "setsockopt",
          "getsockopt", "fcntl", "getsockname", "shutdown", "close"}) {
        INFO("hook " << hook);
        CHECK(calls[hook] > 0);
    }
}

TEST_CASE("NULL data-path hooks: a transport without them moves real data through libc") {
    check_data_moved(run_json(stream_runs("bare-libc")));
}

TEST_CASE("a transport without a required hook is refused, naming the hook") {
    ProcessResult listing =
        run_process({cmdbench_exe(), "plugins", "--plugin-dir", kMissingHook}, 60);
    INFO("stdout:\n" << listing.out << "\nstderr:\n" << listing.err);
    // As for any refused file: named on stderr, exit status 1.
    CHECK(listing.exit_code == 1);
    CHECK_THAT(listing.err, Catch::Contains("transport 'lacks-recv' lacks the required hook "
                                            "'recv'"));
    CHECK_THAT(listing.err, Catch::Contains("plugin ABI 1.1"));

    const std::string toml = temp_dir() + "/missing.toml";
    std::ofstream(toml) << "[[run]]\ntest = \"pingpong\"\ntransport = \"lacks-recv\"\n";
    ProcessResult run =
        run_process({cmdbench_exe(), "run", toml, "--plugin-dir", kMissingHook}, 60);
    INFO("stdout:\n" << run.out << "\nstderr:\n" << run.err);
    CHECK(run.exit_code == 2);
    CHECK_THAT(run.err, Catch::Contains("lacks the required hook 'recv'"));
}

// End to end: the perftest front ends (`cmdbench ib_write_bw` ...) through
// the real binary, without RDMA: option parsing, the options refused by
// name, values out of range, options whose verbs key this build lacks, and
// the two sides meeting over TCP, where the server refuses a client whose
// settings differ, naming the option, before anything of the test runs.
#include "process.hpp"
#include "serve_fixture.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

namespace {

const char *const kTools[] = {"ib_send_lat", "ib_write_lat", "ib_read_lat", "ib_atomic_lat",
                              "ib_send_bw",  "ib_write_bw",  "ib_read_bw",  "ib_atomic_bw"};

ProcessResult tool(const std::string &name, std::vector<std::string> args) {
    args.insert(args.begin(), {cmdbench_exe(), name});
    return run_process(args, 60);
}

void usage_error(const ProcessResult &r, const std::string &says) {
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(says) != std::string::npos);
}

// The loaded verbs test's declaration of `key` (`cmdbench plugins --json`),
// null when it has none.
nlohmann::json verbs_key(const std::string &test, const std::string &key) {
    const ProcessResult r = run_process({cmdbench_exe(), "plugins", "--json"}, 60);
    const auto doc = nlohmann::json::parse(r.out);
    for (const auto &p : doc.at("plugins"))
        for (const auto &t : p.at("tests"))
            if (t.at("name") == test)
                for (const auto &k : t.at("params"))
                    if (k.at("name") == key) return k;
    return nullptr;
}

bool verbs_has_key(const std::string &test, const std::string &key) {
    return !verbs_key(test, key).is_null();
}

// Whether some socket listens on TCP `port` (/proc/net/tcp and tcp6: state
// 0A). Without connecting: the server would take that for its client.
bool port_listens(int port) {
    char local[16];
    std::snprintf(local, sizeof local, ":%04X 00", port);
    for (const char *file : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        std::ifstream in(file);
        std::string line;
        while (std::getline(in, line)) {
            std::istringstream fields(line);
            std::string slot, addr, rem, state;
            fields >> slot >> addr >> rem >> state;
            const std::string want = std::string(local).substr(0, 5); // ":PPPP"
            if (state == "0A" && addr.size() >= want.size() &&
                addr.compare(addr.size() - want.size(), want.size(), want) == 0)
                return true;
        }
    }
    return false;
}

// Waits until the server listens (or has ended).
bool listening(int port, pid_t server) {
    for (int i = 0; i < 400; ++i) {
        if (proc_stat_fields(server).empty()) return false;
        if (port_listens(port)) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
}

} // namespace

TEST_CASE("every tool is a front end, with its own usage", "[perftest]") {
    for (const char *name : kTools) {
        const ProcessResult r = tool(name, {"-h"});
        INFO(name << ": " << r.out << r.err);
        CHECK(r.exit_code == 0);
        CHECK(r.out.find(std::string("cmdbench ") + name + " <host>") != std::string::npos);
    }
    // Each tool lists what its perftest namesake lists, no more.
    CHECK(tool("ib_write_bw", {"-h"}).out.find("--qp") != std::string::npos);
    CHECK(tool("ib_write_lat", {"-h"}).out.find("--qp") == std::string::npos);
    CHECK(tool("ib_read_lat", {"-V"}).out.find("ib_read_lat") != std::string::npos);
}

TEST_CASE("perftest options cmdbench does not take are refused by name", "[perftest]") {
    usage_error(tool("ib_write_bw", {"-O"}),
                "-O/--dualport is not supported by cmdbench ib_write_bw");
    usage_error(tool("ib_send_lat", {"--use-srq"}),
                "--use-srq is not supported by cmdbench ib_send_lat");
    usage_error(tool("ib_read_bw", {"--outs", "4"}), "-o/--outs is not supported");
    usage_error(tool("ib_write_lat", {"-q", "2"}), "-q/--qp is not an option of ib_write_lat");
    usage_error(tool("ib_write_bw", {"-e"}), "-e/--events is not an option of ib_write_bw");
    usage_error(tool("ib_atomic_bw", {"-s", "64"}), "-s/--size is not an option of ib_atomic_bw");
    usage_error(tool("ib_write_bw", {"--frobnicate"}), "unrecognized option '--frobnicate'");
    usage_error(tool("ib_write_bw", {"-s"}), "needs an argument");
    usage_error(tool("ib_write_bw", {"host1", "host2"}), "'host2' is extra");
}

// perftest users pass -F out of habit (it silences perftest's CPU-frequency
// warning, which cmdbench never gives): taken, so the same command line
// runs against both tools. Parsing goes on past it to the next option.
TEST_CASE("perftest's -F/--CPU-freq is taken, with no effect", "[perftest]") {
    for (const char *flag : {"-F", "--CPU-freq"}) {
        const ProcessResult r = tool("ib_read_lat", {flag, "-n", "2"});
        INFO(flag << ": " << r.err);
        usage_error(r, "-n/--iters must be an integer in [5, 100000000], got '2'");
        CHECK(r.err.find("CPU-freq") == std::string::npos);
    }
    CHECK(tool("ib_write_bw", {"-h"}).out.find("--CPU-freq") != std::string::npos);
}

TEST_CASE("perftest option values out of range name the option and the range", "[perftest]") {
    usage_error(tool("ib_write_bw", {"-n", "2"}),
                "-n/--iters must be an integer in [5, 100000000], got '2'");
    usage_error(tool("ib_send_lat", {"-s", "0"}),
                "-s/--size must be an integer in [1, 1073741824]");
    usage_error(tool("ib_write_bw", {"-S", "16"}), "-S/--sl must be an integer in [0, 15]");
    usage_error(tool("ib_write_bw", {"-m", "300"}),
                "-m/--mtu must be one of 256, 512, 1024, 2048, 4096");
    usage_error(tool("ib_write_bw", {"-c", "UD"}),
                "-c/--connection must be one of RC, UC, got 'UD'");
    usage_error(tool("ib_read_lat", {"-c", "UC"}), "-c/--connection must be one of RC, got 'UC'");
    usage_error(tool("ib_write_bw", {"-t", "16", "-Q", "32"}), "-Q/--cq-mod must be in [1, 16]");
    usage_error(tool("ib_write_bw", {"-p", "0"}), "-p/--port must be an integer in [1, 65535]");
    usage_error(tool("ib_atomic_lat", {"-A", "SWAP"}),
                "-A/--atomic_type must be one of FETCH_AND_ADD, CMP_AND_SWAP");
    usage_error(tool("ib_write_bw", {"-a", "-s", "64"}),
                "-a/--all and -s/--size exclude each other");
    usage_error(tool("ib_write_bw", {"--timeout", "0"}), "--timeout must be seconds in (0, 86400]");
    usage_error(tool("ib_write_lat", {"--output", "bandwidth"}),
                "--output bandwidth is not available with ib_write_lat");
}

TEST_CASE("an option whose verbs key this build lacks is refused by name", "[perftest]") {
    const int port = free_port();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"-S", "sl"}, {"--tclass", "traffic_class"}, {"-x", "gid_index"}, {"-d", "device"}};
    for (const auto &[option, key] : cases) {
        const std::string value = option == "-d" ? "rxe0" : "1";
        // To a port nobody listens on: with the key, the client gets as far
        // as connecting, and fails there instead.
        const ProcessResult r =
            tool("ib_write_bw", {"-R", option, value, "-p", std::to_string(port), "127.0.0.1"});
        INFO(option << ": " << r.out << r.err);
        if (verbs_has_key("verbs-bw", key)) {
            CHECK(r.exit_code == 1);
            CHECK(r.err.find("cannot connect") != std::string::npos);
        } else {
            CHECK(r.exit_code == 2);
            CHECK(r.err.find("needs a verbs plugin with key " + key) != std::string::npos);
        }
    }
    if (!verbs_has_key("verbs-bw", "connect")) {
        usage_error(tool("ib_write_bw", {"127.0.0.1", "-p", std::to_string(port)}),
                    "without -R/--rdma_cm, cmdbench ib_write_bw connects its QPs by exchanging");
    }
    // A value the key lacks: qp_type "uc".
    const auto qp_type = verbs_key("verbs-bw", "qp_type");
    if (qp_type.value("choices", std::string()).find("uc") == std::string::npos)
        usage_error(tool("ib_write_bw", {"-R", "-c", "UC", "127.0.0.1"}),
                    "-c/--connection UC needs a verbs plugin whose qp_type takes \"uc\"");
    // -D has no key in verbs-lat at all.
    if (!verbs_has_key("verbs-lat", "duration"))
        usage_error(tool("ib_write_lat", {"-R", "-D", "2", "127.0.0.1"}),
                    "-D/--duration needs a verbs plugin with key duration");
}

TEST_CASE("the server refuses a client whose settings differ, naming the option", "[perftest]") {
    struct Case {
        std::string server_tool, client_tool;
        std::vector<std::string> server_args, client_args;
        std::string says;
    };
    const std::vector<Case> cases = {
        {"ib_write_bw", "ib_write_bw", {"-s", "4096"}, {"-s", "8192"}, "-s/--size"},
        {"ib_write_bw", "ib_write_bw", {"-q", "2"}, {}, "-q/--qp"},
        {"ib_send_lat", "ib_send_lat", {"-n", "100"}, {"-n", "200"}, "-n/--iters"},
        {"ib_write_bw",
         "ib_read_bw",
         {},
         {},
         "the client runs ib_read_bw, this server ib_write_bw"},
    };
    const std::string dir = temp_dir();
    for (const Case &c : cases) {
        const int port = free_port();
        std::vector<std::string> server = {cmdbench_exe(),       c.server_tool, "-R", "-p",
                                           std::to_string(port), "--timeout",   "60"};
        server.insert(server.end(), c.server_args.begin(), c.server_args.end());
        const pid_t pid = start_process(server, dir + "/server.out", dir + "/server.err");
        REQUIRE(listening(port, pid));
        std::vector<std::string> client = {"-R", "-p", std::to_string(port), "127.0.0.1"};
        client.insert(client.end(), c.client_args.begin(), c.client_args.end());
        const ProcessResult r = tool(c.client_tool, client);
        const int server_rc = wait_process(pid, 30);
        const std::string server_err = read_file(dir + "/server.err");
        INFO(c.says << "\nclient: " << r.out << r.err << "\nserver: " << server_err);
        CHECK(r.exit_code == 1);
        CHECK(server_rc == 1);
        CHECK(r.err.find("the server refused: " + c.says) != std::string::npos);
        CHECK(server_err.find(c.says) != std::string::npos);
        // Refused before the test: no result line, no "needs an RDMA device".
        CHECK(r.err.find("RDMA device") == std::string::npos);
    }
}

TEST_CASE("the server's wait for a client is bounded by --timeout and ends on Ctrl-C",
          "[perftest]") {
    const auto t0 = std::chrono::steady_clock::now();
    const ProcessResult r =
        tool("ib_write_bw", {"-R", "-p", std::to_string(free_port()), "--timeout", "1"});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("no client connected to port") != std::string::npos);
    CHECK(seconds_since(t0) < wall_bound(15));

    const std::string dir = temp_dir();
    const int port = free_port();
    const pid_t pid =
        start_process({cmdbench_exe(), "ib_send_bw", "-R", "-p", std::to_string(port)},
                      dir + "/out", dir + "/err");
    REQUIRE(listening(port, pid));
    const auto t1 = std::chrono::steady_clock::now();
    kill(pid, SIGINT);
    CHECK(wait_process(pid, 30) == 130);
    CHECK(seconds_since(t1) < wall_bound(10));
    CHECK(read_file(dir + "/err").find("interrupted while waiting for a client") !=
          std::string::npos);
}

// End to end: a run whose peer dies (the local server, a `cmdbench serve`,
// the client) or that is interrupted ends within seconds, not at its
// timeout, saying what died and keeping the rows it finished. The fixture
// test "stall" reports a row and then waits for the host's cancel, as a data
// path that never hears of its peer's death does (RDMA verbs); the tcp
// cases kill the peer of real stream and sock-steps runs.
#include "process.hpp"
#include "serve_fixture.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <thread>

using nlohmann::json;

namespace {

// Every case's run would last this long if nothing stopped it; each must end
// within kEndWithin of the kill (generous for a loaded 2-CPU machine).
constexpr int kRunTimeout = 60;
constexpr double kEndWithin = 15;

std::string fault_plugins() {
    return std::string(CMDBENCH_BINARY_DIR) + "/tests/fixtures/fault";
}

std::string scenario(const std::string &dir, const std::string &runs) {
    const std::string path = dir + "/scenario.toml";
    std::ofstream(path) << "[defaults]\ntimeout = " << kRunTimeout << "\n" << runs;
    return path;
}

const char *kStall = "[[run]]\nname = \"stall\"\ntest = \"stall\"\n";

// Waits (bounded) until what `read` returns holds `text` `times` times.
bool wait_for_text(const std::function<std::string()> &read, const std::string &text,
                   int times = 1) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
        const std::string s = read();
        int found = 0;
        for (size_t at = s.find(text); at != std::string::npos; at = s.find(text, at + 1))
            ++found;
        if (found >= times) return true;
        if (std::chrono::steady_clock::now() > end) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

// The local server `cmdbench run` started (its only child).
pid_t local_server_of(pid_t client) {
    std::ifstream in("/proc/" + std::to_string(client) + "/task/" + std::to_string(client) +
                     "/children");
    pid_t child = -1;
    in >> child;
    return child;
}

// A `cmdbench run` in the background, its output in the test's directory.
struct Client {
    std::string dir = temp_dir();
    pid_t pid = -1;
    std::chrono::steady_clock::time_point stopped;

    void start(const std::string &runs, const std::vector<std::string> &more = {},
               const std::vector<std::string> &env = {}) {
        std::vector<std::string> argv = {"/usr/bin/env"};
        argv.insert(argv.end(), env.begin(), env.end());
        argv.insert(argv.end(), {cmdbench_exe(), "run", scenario(dir, runs), "--format", "json",
                                 "--plugin-dir", fault_plugins()});
        argv.insert(argv.end(), more.begin(), more.end());
        pid = start_process(argv, dir + "/out", dir + "/err");
    }
    std::string err() const { return read_file(dir + "/err"); }
    // Waits (bounded) until its stderr holds `text` `times` times.
    bool said(const std::string &text, int times = 1) const {
        return wait_for_text([this] { return err(); }, text, times);
    }
    // Sends `sig` to `who` and notes when.
    void stop(pid_t who, int sig) {
        REQUIRE(who > 0);
        kill(who, sig);
        stopped = std::chrono::steady_clock::now();
    }
    // Waits for the client to end: its exit code, and the run it reported.
    json ended(int &code, double &seconds) {
        code = wait_process(pid, kRunTimeout + 30);
        seconds = seconds_since(stopped);
        INFO("stderr: " << err());
        const json doc = json::parse(read_file(dir + "/out"));
        REQUIRE(doc["runs"].size() == 1);
        return doc["runs"][0];
    }
};

std::vector<std::string> row_names(const json &run) {
    std::vector<std::string> out;
    for (const auto &row : run["rows"])
        out.push_back(row["name"]);
    return out;
}

// The run's end: exit `want` within kEndWithin, `status`, and an error that
// opens with `error` (any error when empty). The run's results.
json check_end(Client &c, int want, const std::string &status, const std::string &error) {
    int code = 0;
    double seconds = 0;
    const json run = c.ended(code, seconds);
    CHECK(code == want);
    CHECK(seconds < kEndWithin);
    CHECK(run["status"] == status);
    if (!error.empty()) CHECK_THAT(run["error"].get<std::string>(), Catch::StartsWith(error));
    return run;
}

} // namespace

TEST_CASE("a local server killed mid-run ends the run at once, naming its death, rows kept") {
    Client c;
    c.start(kStall);
    REQUIRE(c.said("cmdbench: info: stall: waiting"));
    c.stop(local_server_of(c.pid), SIGKILL);
    const json run =
        check_end(c, 1, "failed", "the local server was killed (SIGKILL) during run 'stall'");
    CHECK(row_names(run) == std::vector<std::string>{"first"});
}

TEST_CASE("a cmdbench serve killed mid-run ends the run at once, naming the server") {
    ServeProcess server({"--once", "--no-limits", "--plugin-dir", fault_plugins()});
    Client c;
    c.start(kStall, {"--server", server.address()});
    REQUIRE(c.said("cmdbench: info: stall: waiting"));
    c.stop(server.pid(), SIGKILL);
    const json run =
        check_end(c, 1, "failed", "lost server " + server.address() + " during run 'stall'");
    CHECK(row_names(run) == std::vector<std::string>{"first"});
}

TEST_CASE("a client killed mid-run: cmdbench serve ends its side at once") {
    ServeProcess server({"--once", "--no-limits", "--plugin-dir", fault_plugins()});
    Client c;
    c.start(kStall, {"--server", server.address()});
    REQUIRE(c.said("cmdbench: info: stall: waiting"));
    REQUIRE(wait_for_text([&server] { return server.err(); }, "stall: waiting"));
    c.stop(c.pid, SIGKILL);
    wait_process(c.pid, 10);
    // --once: the server exits when its one session ends, that is when its
    // side of the run stopped.
    server.wait_exit(kRunTimeout + 30);
    INFO("server: " << server.err());
    CHECK(seconds_since(c.stopped) < kEndWithin);
}

TEST_CASE("Ctrl-C stops both sides of a run at once, the rows so far kept") {
    Client c;
    c.start(kStall);
    REQUIRE(c.said("cmdbench: info: stall: waiting"));
    const pid_t server = local_server_of(c.pid);
    c.stop(c.pid, SIGINT);
    const json run = check_end(c, 130, "interrupted", "");
    CHECK(row_names(run) == std::vector<std::string>{"first"});
    // The server's side stopped because this side did: nothing of it to add.
    CHECK_THAT(run["error"].get<std::string>(), !Catch::Contains("server"));
    CHECK(kill(server, 0) != 0); // stopped and reaped by the client
}

namespace {

// Voluntary context switches (sleeps ended) of thread `tid` of `pid` so far.
long wakeups(pid_t pid, const std::string &tid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/task/" + tid + "/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("voluntary_ctxt_switches:", 0) == 0) return std::stol(line.substr(24));
    return -1;
}

// The threads of `pid` asleep in poll(), as the host's waits are (a
// sanitizer's own thread sleeps in nanosleep and is left out).
std::vector<std::string> polling_threads(pid_t pid) {
    std::vector<std::string> out;
    for (const auto &t :
         std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task")) {
        std::ifstream in(t.path() / "wchan");
        std::string wchan;
        in >> wchan;
        if (wchan.find("poll") != std::string::npos) out.push_back(t.path().filename().string());
    }
    return out;
}

long wakeups(pid_t pid, const std::vector<std::string> &tids) {
    long sum = 0;
    for (const std::string &tid : tids)
        sum += std::max(0L, wakeups(pid, tid));
    return sum;
}

} // namespace

// A wake-up every 100 ms on an idle CPU slowed the timed loop of a READ run
// under emulation by 5-50% (bench/README.md): while a test runs, the host's
// own waits (the watchdogs, the passive server's barrier) sleep until
// something happens.
TEST_CASE("while a test runs, the host's threads sleep: no periodic wake-up on either side") {
    Client c;
    c.start("[[run]]\nname = \"passive\"\ntest = \"passive\"\n");
    REQUIRE(c.said("cmdbench: info: passive: busy"));
    REQUIRE(c.said("passive: waiting"));
    const pid_t server = local_server_of(c.pid);
    const std::string main_thread = std::to_string(c.pid);
    // The server: its watchdog and its test's thread in the barrier (which
    // it enters just after its log line: looked for until it is there).
    std::vector<std::string> waits = polling_threads(server);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (waits.size() < 2 && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        waits = polling_threads(server);
    }
    REQUIRE(waits.size() >= 2);
    const long server_before = wakeups(server, waits);
    const long client_before = wakeups(c.pid, main_thread); // its watchdog
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    const long server_woke = wakeups(server, waits) - server_before;
    const long client_woke = wakeups(c.pid, main_thread) - client_before;
    // Each slept through the 1.5 s but for the watchdog's look every 250 ms
    // (at most 7); a 100 ms tick in each wait would be 15 a thread, 30 for
    // the server's two.
    CHECK(server_woke <= 8);
    CHECK(client_woke <= 8);
    // And events still end it: Ctrl-C stops the client, whose closed channel
    // wakes the server's watchdog, whose cancel wakes its barrier.
    c.stop(c.pid, SIGINT);
    check_end(c, 130, "interrupted", "");
    CHECK(kill(server, 0) != 0);
}

// The watchdog wakes the moment the peer's end of the run arrives; a test
// that was failing on its own at that moment keeps its own reason, and the
// peer's comes with its end of the run: the report has both. A test that
// only stopped for the cancel gets the peer's reason instead of its own.
TEST_CASE("both sides failing at once keep their own reasons, a side that only stopped does not") {
    SECTION("both failed on their own, the server 300 ms after the client") {
        Client c;
        c.start("[[run]]\nname = \"both\"\ntest = \"both-fail\"\n");
        c.stopped = std::chrono::steady_clock::now();
        const json run = check_end(c, 1, "failed", "client side failed");
        CHECK(run["error"] == "client side failed (server: server side failed)");
    }
    SECTION("the server only stopped for the cancel") {
        Client c;
        c.start("[[run]]\nname = \"one\"\ntest = \"fail-client\"\n");
        c.stopped = std::chrono::steady_clock::now();
        const json run = check_end(c, 1, "failed", "client side failed");
        // The server's side says the client ended the run, which the
        // client's own error already holds: nothing is added.
        CHECK(run["error"] == "client side failed");
    }
}

namespace {

// A tcp run whose local server is killed once its data connection is up
// (the server configures the accepted socket: its second Keepalive line):
// the run ends at once, failed, naming the server's death.
void kill_local_tcp_server(const std::string &run) {
    Client c;
    c.start(run, {}, {"CMDBENCH_LOG_LEVEL=debug"});
    REQUIRE(c.said("cmdbench serve: debug: Keepalive", 2));
    c.stop(local_server_of(c.pid), SIGKILL);
    const json result =
        check_end(c, 1, "failed", "the local server was killed (SIGKILL) during run 'x'");
}

} // namespace

TEST_CASE("tcp: a local server killed mid-throughput ends the run at once") {
    kill_local_tcp_server("[[run]]\nname = \"x\"\ntest = \"throughput\"\ntransport = \"tcp\"\n"
                          "keepalive = 30\nsizes = [65536]\nduration = 50.0\n");
}

TEST_CASE("tcp: a local server killed mid-pingpong ends the run at once") {
    kill_local_tcp_server("[[run]]\nname = \"x\"\ntest = \"pingpong\"\ntransport = \"tcp\"\n"
                          "keepalive = 30\nsizes = [1048576]\niterations = 1000000\n");
}

TEST_CASE("tcp: a cmdbench serve killed mid-pingpong ends the run at once") {
    ServeProcess server({"--once", "--no-limits"}, {"/usr/bin/env", "CMDBENCH_LOG_LEVEL=debug"});
    Client c;
    c.start("[[run]]\nname = \"x\"\ntest = \"pingpong\"\ntransport = \"tcp\"\nkeepalive = 30\n"
            "sizes = [1048576]\niterations = 1000000\n",
            {"--server", server.address()});
    // The server configured its listener, then the data connection it accepted.
    REQUIRE(wait_for_text([&server] { return server.err(); }, "debug: Keepalive", 2));
    c.stop(server.pid(), SIGKILL);
    const json run = check_end(c, 1, "failed", "");
    CHECK_THAT(run["error"].get<std::string>(), Catch::Contains(server.address()));
}

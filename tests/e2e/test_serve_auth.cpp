// `cmdbench serve` trusts nobody by default: it listens on loopback unless
// told otherwise, and with a token it serves only clients that prove they
// hold it, without the token ever crossing the wire.
#include "connection_flood.hpp"
#include "process.hpp"
#include "raw_control.hpp"
#include "serve_fixture.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstring>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <sstream>
#include <sys/stat.h>
#include <thread>

using Catch::Contains;
using nlohmann::json;

namespace {

const char *kPingpong = R"(
[[run]]
test = "pingpong"
transport = "tcp"
sizes = [64]
iterations = 50
)";

const std::string kToken = "e2e-token-5f1c0a9b7d3e2f4a6b8c";

std::string scenario_file() {
    return write_text(temp_dir() + "/scenario.toml", kPingpong);
}

ProcessResult run_against(const ServeProcess &server, const std::vector<std::string> &extra,
                          const std::vector<std::string> &env = {}) {
    std::vector<std::string> argv = {cmdbench_exe(),   "run",      scenario_file(), "--server",
                                     server.address(), "--format", "json"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_process(argv, 120, env);
}

std::string first_error(const ProcessResult &r) {
    return json::parse(r.out)["runs"][0]["error"].get<std::string>();
}

// The local addresses of sockets listening on `port`, from /proc/net/tcp
// and tcp6 ("0100007F" is 127.0.0.1; all zeros a wildcard).
std::vector<std::string> listening_addresses(int port) {
    char port_hex[8];
    std::snprintf(port_hex, sizeof port_hex, "%04X", port);
    std::vector<std::string> out;
    for (const char *table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        std::istringstream lines(read_file(table));
        std::string line;
        std::getline(lines, line); // header
        while (std::getline(lines, line)) {
            std::istringstream f(line);
            std::string slot, local, remote, state;
            f >> slot >> local >> remote >> state;
            const auto colon = local.find(':');
            if (state == "0A" && local.substr(colon + 1) == port_hex)
                out.push_back(std::string(table) + " " + local.substr(0, colon));
        }
    }
    return out;
}

// Reads one control frame (header and payload) within 10 s.
std::vector<uint8_t> read_frame(int fd) {
    std::vector<uint8_t> frame;
    size_t want = 12;
    while (frame.size() < want) {
        pollfd p{fd, POLLIN, 0};
        REQUIRE(poll(&p, 1, 10000) == 1);
        uint8_t buf[4096];
        const ssize_t n = recv(fd, buf, std::min(sizeof buf, want - frame.size()), 0);
        REQUIRE(n > 0);
        frame.insert(frame.end(), buf, buf + n);
        if (frame.size() == 12)
            want = 12 + (size_t(frame[8]) << 24 | size_t(frame[9]) << 16 | size_t(frame[10]) << 8 |
                         frame[11]);
    }
    return frame;
}

void put_be(std::vector<uint8_t> &out, uint64_t v, int n) {
    for (int i = n - 1; i >= 0; --i)
        out.push_back(uint8_t(v >> (8 * i)));
}

} // namespace

TEST_CASE("serve listens on loopback only unless --bind says otherwise") {
    ServeProcess server({});
    INFO(server.err());
    CHECK_THAT(server.err(), Contains("listening on 127.0.0.1:"));
    const auto where = listening_addresses(server.port());
    std::string listed;
    for (const auto &w : where)
        listed += w + "; ";
    INFO("listening sockets: " << listed);
    // 127.0.0.1, and ::1 where loopback has IPv6; nothing else.
    REQUIRE(!where.empty());
    CHECK(where[0] == "/proc/net/tcp 0100007F");
    for (size_t i = 1; i < where.size(); ++i)
        CHECK(where[i] == "/proc/net/tcp6 00000000000000000000000001000000");
    CHECK(where.size() <= 2);

    ServeProcess open({"--bind", "0.0.0.0"});
    CHECK_THAT(open.err(), Contains("warning: listening on 0.0.0.0 without a token"));
    ServeProcess guarded(
        {"--bind", "0.0.0.0", "--token-file", write_text(temp_dir() + "/token", kToken)});
    CHECK_THAT(guarded.err(), !Contains("warning"));
}

TEST_CASE("every address is listened on only when asked for as 0.0.0.0 or ::") {
    for (const char *bind : {"*", "0", "0x0", "0.0", "::0", "::ffff:0.0.0.0", "127.0.0.1, 0"}) {
        const ProcessResult r =
            run_process({cmdbench_exe(), "serve", "--bind", bind, "--port", "0"}, 10);
        INFO("--bind '" << bind << "': " << r.err);
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Contains("means every address") && Contains("0.0.0.0") &&
                              !Contains("listening"));
    }
}

TEST_CASE("a client with the server's token runs, from a file or CMDBENCH_TOKEN") {
    const std::string token_file = write_text(temp_dir() + "/token", kToken + "\n");
    ServeProcess server({"--token-file", token_file});
    auto r = run_against(server, {"--token-file", token_file});
    INFO(r.err << server.err());
    REQUIRE(r.exit_code == 0);
    CHECK(json::parse(r.out)["runs"][0]["rows"][0]["histograms"]["rtt"]["count"] == 50);

    ServeProcess by_env({}, {"/usr/bin/env", "CMDBENCH_TOKEN=" + kToken});
    r = run_against(by_env, {}, {"CMDBENCH_TOKEN=" + kToken});
    INFO(r.err << by_env.err());
    CHECK(r.exit_code == 0);
}

TEST_CASE("a missing or wrong token is refused at once, clearly, and nothing runs") {
    ServeProcess server({"--token-file", write_text(temp_dir() + "/token", kToken)});

    auto r = run_against(server, {});
    INFO(r.err << server.err());
    CHECK(r.exit_code == 1);
    CHECK(r.seconds < wall_bound(15));
    CHECK_THAT(first_error(r), Contains("authentication required") &&
                                   Contains("--token-file FILE or CMDBENCH_TOKEN"));
    CHECK(json::parse(r.out)["runs"][0]["rows"].empty());

    r = run_against(server, {"--token-file",
                             write_text(temp_dir() + "/other", "another-token-0123456789abcdef")});
    CHECK(r.exit_code == 1);
    CHECK(r.seconds < wall_bound(15));
    CHECK_THAT(first_error(r), Contains("refused us: authentication failed"));
    CHECK(json::parse(r.out)["runs"][0]["rows"].empty());

    // The server says whom it turned away, ran nothing, and still serves.
    // (Its session child may log a moment after the client has its answer.)
    const std::string log = server.err_with("wrong token");
    CHECK_THAT(log, Contains("refused client 127.0.0.1:") && Contains("it has no token"));
    CHECK_THAT(log, Contains("wrong token"));
    CHECK_THAT(log, !Contains("connected"));
    CHECK_THAT(server.out(), !Contains("server side"));
    r = run_against(server, {"--token", kToken});
    CHECK(r.exit_code == 0);
}

TEST_CASE("a client with a token refuses a server without one") {
    ServeProcess server({});
    auto r = run_against(server, {"--token", kToken});
    INFO(r.err << server.err());
    CHECK(r.exit_code == 1);
    CHECK_THAT(first_error(r), Contains("does not ask for a token"));
    // The server sees the client go after the client's exit.
    CHECK_THAT(server.err_with("gave up"), Contains("gave up"));
}

TEST_CASE("bad token options are usage errors naming the option") {
    auto r = run_process({cmdbench_exe(), "serve", "--token", "short"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("--token has 5 characters; use at least 16"));
    r = run_process({cmdbench_exe(), "serve", "--token-file", "/nonexistent/token"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("--token-file: '/nonexistent/token': cannot read"));
    // Bounded like every input file: /dev/zero is refused, not read forever.
    r = run_process({cmdbench_exe(), "serve", "--token-file", "/dev/zero"}, 20);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("--token-file: '/dev/zero': larger than the 4096-byte limit"));
    r = run_process({cmdbench_exe(), "run", scenario_file(), "--token", kToken, "--token-file",
                     write_text(temp_dir() + "/token", kToken)});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("either --token or --token-file"));
}

TEST_CASE("a token file's warning names the permission bits that are wrong") {
    // The client reads the token before it connects; port 1 then refuses it.
    const auto warning_for = [](mode_t mode) {
        const std::string file = write_text(temp_dir() + "/token", kToken);
        REQUIRE(chmod(file.c_str(), mode) == 0);
        auto r = run_process({cmdbench_exe(), "run", scenario_file(), "--server", "127.0.0.1:1",
                              "--token-file", file});
        CHECK(r.exit_code == 1);
        const auto at = r.err.find("warning: token file");
        return at == std::string::npos ? std::string()
                                       : r.err.substr(at, r.err.find('\n', at) - at);
    };
    CHECK_THAT(warning_for(0620), Contains("has mode 0620: its group can write it (chmod 600 it)"));
    CHECK_THAT(warning_for(0644), Contains("has mode 0644: its group and other users can read it"));
    CHECK_THAT(warning_for(0606),
               Contains("has mode 0606: other users can read and write it (chmod 600 it)"));
    CHECK_THAT(warning_for(0642),
               Contains("has mode 0642: its group can read it, other users can write it"));
    CHECK(warning_for(0600).empty());
    CHECK(warning_for(0400).empty());
}

TEST_CASE("the token never crosses the wire: a fake server sees only nonce and MAC") {
    // The fake server: a plain socket that records what the client sends.
    const int listener = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    REQUIRE(bind(listener, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0);
    REQUIRE(listen(listener, 1) == 0);
    REQUIRE(getsockname(listener, reinterpret_cast<sockaddr *>(&a), &len) == 0);
    const std::string dir = temp_dir();
    const pid_t client =
        start_process({cmdbench_exe(), "run", scenario_file(), "--server",
                       "127.0.0.1:" + std::to_string(ntohs(a.sin_port)), "--format", "json",
                       "--token-file", write_text(dir + "/token", kToken)},
                      dir + "/out", dir + "/err");
    pollfd p{listener, POLLIN, 0};
    REQUIRE(poll(&p, 1, 20000) == 1);
    const int fd = accept(listener, nullptr, nullptr);
    REQUIRE(fd >= 0);

    std::vector<uint8_t> wire = read_frame(fd);
    // Hello: magic "CMDB", version 3, type 1; it ends with a 32-byte nonce.
    REQUIRE(wire.size() > 12 + 4 + 32);
    CHECK(std::string(wire.begin(), wire.begin() + 4) == "CMDB");
    CHECK((wire[4] << 8 | wire[5]) == 3);
    CHECK((wire[6] << 8 | wire[7]) == 1);
    // HelloAck with a nonce of our own, as a server with a token sends.
    std::vector<uint8_t> ack_payload;
    put_be(ack_payload, 3, 2);
    put_be(ack_payload, 4, 4);
    for (char c : std::string("fake"))
        ack_payload.push_back(uint8_t(c));
    put_be(ack_payload, 32, 4);
    for (int i = 0; i < 32; ++i)
        ack_payload.push_back(uint8_t(i));
    std::vector<uint8_t> ack = {'C', 'M', 'D', 'B'};
    put_be(ack, 3, 2);
    put_be(ack, 2, 2);
    put_be(ack, ack_payload.size(), 4);
    ack.insert(ack.end(), ack_payload.begin(), ack_payload.end());
    REQUIRE(send(fd, ack.data(), ack.size(), 0) == ssize_t(ack.size()));
    const std::vector<uint8_t> auth = read_frame(fd);
    // Auth: type 10, a 32-byte MAC and nothing else.
    CHECK((auth[6] << 8 | auth[7]) == 10);
    CHECK(auth.size() == 12 + 4 + 32);
    wire.insert(wire.end(), auth.begin(), auth.end());
    close(fd);
    close(listener);
    const int code = wait_process(client, 30);
    INFO(read_file(dir + "/err"));
    CHECK(code == 1);

    const std::string seen(wire.begin(), wire.end());
    CHECK(seen.find(kToken) == std::string::npos);
    CHECK(seen.find(kToken.substr(0, 8)) == std::string::npos);
}

TEST_CASE("serve --once is not used up by a client that fails the handshake") {
    // The local server of `cmdbench run` is a `serve --once`: a stranger who
    // connects first with no or a wrong token must not end it.
    const std::string token_file = write_text(temp_dir() + "/token", kToken);
    ServeProcess server({"--once", "--token-file", token_file});
    auto r = run_against(server, {});
    CHECK(r.exit_code == 1);
    CHECK_THAT(first_error(r), Contains("authentication required"));
    r = run_against(server, {"--token-file",
                             write_text(temp_dir() + "/other", "another-token-0123456789abcdef")});
    CHECK(r.exit_code == 1);
    r = run_against(server, {"--token-file", token_file});
    INFO(r.err << server.err());
    CHECK(r.exit_code == 0);
    CHECK(json::parse(r.out)["runs"][0]["rows"].size() == 1);
    CHECK(server.wait_exit(10) == 0); // served its one session, then left
}

namespace {

// A Hello that claims a token (a nonce of 32 random-looking bytes) and
// carries `software`.
std::string hello_with_nonce(const std::string &software) {
    return std::string("\x00\x03", 2) + raw::str(software) + raw::str(std::string(32, '\x5a'));
}

// A client with the token in the middle of a long run: its session is the
// server's only one until it is killed.
pid_t start_holder(const ServeProcess &server, const std::string &token_file) {
    const std::string dir = temp_dir();
    const std::string scenario = write_text(dir + "/long.toml", R"(
[[run]]
test = "pingpong"
transport = "tcp"
timeout = 60
sizes = [64]
iterations = 100000000
)");
    return start_process({cmdbench_exe(), "run", scenario, "--server", server.address(),
                          "--token-file", token_file, "--quiet"},
                         dir + "/out", dir + "/err");
}

void wait_for_log(const ServeProcess &server, const std::string &text) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (server.err().find(text) == std::string::npos) {
        INFO(server.err().substr(0, 4000)); // a flooded log is not printed whole
        REQUIRE(std::chrono::steady_clock::now() < end);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

} // namespace

TEST_CASE("strangers without the token never take the one session, however often they come") {
    const std::string token_file = write_text(temp_dir() + "/token", kToken);
    ServeProcess server({"--token-file", token_file});
    // Every 100 ms a new connection says hello, claims a token, and never
    // proves it; none is closed while the real clients run.
    std::atomic<bool> done{false};
    std::vector<int> strangers;
    std::thread flood([&] {
        while (!done) {
            const int fd = raw::connect_to("127.0.0.1", server.port(), 1000);
            if (fd >= 0) {
                raw::send_frame(fd, raw::kHello, hello_with_nonce("stranger"));
                strangers.push_back(fd);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    });
    // Past 32 strangers the handshake pool is full: the oldest make room.
    std::this_thread::sleep_for(std::chrono::milliseconds(4000));
    for (int i = 0; i < 4; ++i) {
        const auto r = run_against(server, {"--token-file", token_file});
        INFO("client " << i << ": " << r.err << (r.exit_code ? first_error(r) : "")
                       << server.err());
        CHECK(r.exit_code == 0);
    }
    done = true;
    flood.join();
    INFO(strangers.size() << " strangers");
    CHECK(strangers.size() >= 35);
    CHECK_THAT(server.err(), Contains("dropped the handshake of 127.0.0.1:"));
    for (int fd : strangers)
        close(fd);
}

TEST_CASE("a flood of silent connections from the client's own address does not lock it out") {
    const std::string token_file = write_text(temp_dir() + "/token", kToken);
    ServeProcess server({"--token-file", token_file, "--max-clients", "2", "--quiet"});
    ConnectionFlood flood(server.port(), 600);
    // Until the flood has filled the handshake pool many times over.
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (flood.made() < 2000 && std::chrono::steady_clock::now() < end)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    INFO(flood.made() << " silent connections made");
    REQUIRE(flood.made() >= 2000);
    int served = 0;
    for (int i = 0; i < 6; ++i) {
        const auto r = run_against(server, {"--token-file", token_file});
        INFO("client " << i << ": " << r.err);
        CHECK(r.exit_code == 0);
        served += r.exit_code == 0;
    }
    INFO(flood.made() << " silent connections made");
    CHECK(served == 6);
}

TEST_CASE("only a client with the token is told whom the server is busy with") {
    const std::string token_file = write_text(temp_dir() + "/token", kToken);
    ServeProcess server({"--token-file", token_file});
    const pid_t holder = start_holder(server, token_file);
    wait_for_log(server, ") connected");

    // Without a token, and with a wrong proof: refused, and told nothing more.
    for (bool claims_token : {false, true}) {
        INFO("claims a token: " << claims_token);
        const int fd = raw::connect_to("127.0.0.1", server.port(), 2000);
        REQUIRE(fd >= 0);
        REQUIRE(raw::send_frame(fd, raw::kHello,
                                claims_token ? hello_with_nonce("stranger")
                                             : raw::hello_payload("stranger")));
        uint16_t type = 0;
        std::string payload;
        REQUIRE(raw::recv_frame(fd, 5000, type, payload));
        if (type == raw::kHelloAck) {
            REQUIRE(raw::send_frame(fd, raw::kAuth, raw::str(std::string(32, '\x01'))));
            REQUIRE(raw::recv_frame(fd, 5000, type, payload));
        }
        REQUIRE(type == raw::kError);
        const std::string text = raw::payload_string(payload, 0);
        CHECK_THAT(text, Contains("authentication") && !Contains("busy") &&
                             !Contains("127.0.0.1") && !Contains("since"));
        close(fd);
    }
    // With the token: told who holds the session.
    const auto r = run_against(server, {"--token-file", token_file});
    INFO(r.err << server.err());
    CHECK(r.exit_code == 1);
    CHECK_THAT(first_error(r), Contains("server busy with 127.0.0.1:") && Contains("since") &&
                                   Contains("1 of 1 clients"));
    kill(holder, SIGTERM);
    wait_process(holder, 30);
}

TEST_CASE("a megabyte of escapes in a refused hello costs the log a short line") {
    ServeProcess server({"--token-file", write_text(temp_dir() + "/token", kToken)});
    const std::string escapes(raw::kMaxPayload - 16, '\x1b');
    for (int i = 0; i < 20; ++i) {
        const int fd = raw::connect_to("127.0.0.1", server.port(), 2000);
        REQUIRE(fd >= 0);
        REQUIRE(raw::send_frame(fd, raw::kHello, raw::hello_payload(escapes)));
        uint16_t type = 0;
        std::string payload;
        REQUIRE(raw::recv_frame(fd, 5000, type, payload));
        CHECK(type == raw::kError);
        close(fd);
    }
    // The refusals are logged, each cut to its first bytes.
    wait_for_log(server, "bytes]): it has no token");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const std::string log = server.err();
    INFO(log.substr(0, 2000));
    CHECK(log.size() < 20 * 1024);
    CHECK(log.find('\x1b') == std::string::npos);
}

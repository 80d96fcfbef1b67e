// `cmdbench serve` bounds what a client can make it do: no 1 GiB buffers and
// no privileged data ports unless its operator allows them; the server that
// `cmdbench run` starts for its own user keeps no such limits.
#include "process.hpp"
#include "serve_fixture.hpp"

#include <arpa/inet.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

using Catch::Contains;
using nlohmann::json;

namespace {

std::string scenario(const std::string &text) {
    return write_text(temp_dir() + "/scenario.toml", text);
}

// Buffers of `size` bytes on both sides (the stream test allocates its
// largest size), but only 1 MiB streamed, to keep the test quick.
std::string one_big_send(long size) {
    return "[[run]]\ntest = \"throughput\"\ntransport = \"tcp\"\ntimeout = 240\nduration = "
           "0\nsizes = [" +
           std::to_string(size) + "]\nbytes = 1048576\n";
}

std::string pingpong_on_port(int port) {
    return "[[run]]\ntest = \"pingpong\"\ntransport = \"tcp\"\nsizes = [64]\niterations = 20\n"
           "port = " +
           std::to_string(port) + "\n";
}

ProcessResult run(const std::string &scenario_text, const std::vector<std::string> &extra) {
    std::vector<std::string> argv = {cmdbench_exe(), "run", scenario(scenario_text), "--format",
                                     "json"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_process(argv, 300);
}

std::string first_error(const ProcessResult &r) {
    return json::parse(r.out)["runs"][0]["error"].get<std::string>();
}

// A privileged port free on 127.0.0.1, or 0 when we may not bind one.
int free_privileged_port() {
    for (int port = 1000; port > 600; --port) {
        const int fd = socket(AF_INET, SOCK_STREAM, 0);
        const int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(uint16_t(port));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        const bool ok = bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0;
        close(fd);
        if (ok) return port;
    }
    return 0;
}

} // namespace

TEST_CASE("a default serve refuses 1 GiB sizes and port 22, naming the limit") {
    ServeProcess server({});
    auto r = run(one_big_send(1073741824), {"--server", server.address()});
    INFO(r.err << server.err());
    CHECK(r.exit_code == 1);
    CHECK(r.seconds < wall_bound(30));
    CHECK_THAT(first_error(r), Contains("'sizes' = 1073741824") && Contains("limit of 67108864") &&
                                   Contains("--limit sizes="));
    CHECK(json::parse(r.out)["runs"][0]["rows"].empty());

    r = run(pingpong_on_port(22), {"--server", server.address()});
    CHECK(r.exit_code == 1);
    CHECK_THAT(first_error(r), Contains("'port' = 22") && Contains("privileged") &&
                                   Contains("--allow-privileged-ports"));
    CHECK_THAT(server.err(), Contains("refused run") && Contains("127.0.0.1:"));
    CHECK_THAT(server.out(), !Contains("server side"));

    // Within the limits the same server serves.
    r = run(one_big_send(1048576), {"--server", server.address()});
    CHECK(r.exit_code == 0);
}

TEST_CASE("serve --limit and --allow-privileged-ports let such runs through") {
    ServeProcess server(
        {"--limit", "sizes=1G", "--limit", "bytes=none", "--allow-privileged-ports"});
    // 128 MiB: over the default limit (64 MiB), so only --limit lets it
    // through; buffers of 1 GiB took over a minute to touch under TSan.
    auto r = run(one_big_send(134217728), {"--server", server.address()});
    INFO(r.err << server.err());
    CHECK(r.exit_code == 0);
    const int port = free_privileged_port();
    if (port == 0) {
        WARN("cannot bind a privileged port here: the privileged-port run is not tried");
        return;
    }
    r = run(pingpong_on_port(port), {"--server", server.address()});
    INFO(r.err << server.err());
    CHECK(r.exit_code == 0);
}

TEST_CASE("a run without --server is not held to serve's limits") {
    auto r = run(one_big_send(134217728), {});
    INFO(r.err);
    CHECK(r.exit_code == 0);
}

TEST_CASE("bad limit options are usage errors naming the option") {
    auto r = run_process({cmdbench_exe(), "serve", "--limit", "size=5"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("--limit size: no loaded test or transport has a numeric "
                               "parameter of that name") &&
                          Contains("sizes"));
    r = run_process({cmdbench_exe(), "serve", "--limit", "sizes=lots"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("--limit sizes expects a non-negative whole number"));
    r = run_process({cmdbench_exe(), "serve", "--max-memory", "1.5G"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains("--max-memory expects"));
}

TEST_CASE("serve --max-memory below what the server needs is refused before it listens") {
    if (CMDBENCH_SANITIZED) {
        WARN("sanitizer build: --max-memory is ignored, so nothing is refused");
        return;
    }
    std::string minimum;
    for (const std::string value : {"1", "16M"}) {
        auto r = run_process({cmdbench_exe(), "serve", "--port", "0", "--max-memory", value}, 30);
        INFO(r.err);
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, !Contains("listening"));
        std::smatch m;
        REQUIRE(std::regex_search(r.err, m,
                                  std::regex("--max-memory " + value +
                                             " is too small: allowed is ([0-9]+)M or more here")));
        minimum = m[1];
    }
    // The minimum is what it says: a server capped there serves a run.
    ServeProcess server({"--max-memory", minimum + "M"});
    auto r = run(pingpong_on_port(0), {"--server", server.address()});
    INFO(minimum << "M\n" << r.err << server.err());
    CHECK(r.exit_code == 0);
    const auto below = run_process({cmdbench_exe(), "serve", "--port", "0", "--max-memory",
                                    std::to_string(std::stol(minimum) - 1) + "M"},
                                   30);
    CHECK(below.exit_code == 2);
}

TEST_CASE("serve --max-memory caps the server's address space") {
    ServeProcess server({"--max-memory", "4G"});
    std::istringstream limits(read_file("/proc/" + std::to_string(server.pid()) + "/limits"));
    std::string line, address_space;
    while (std::getline(limits, line))
        if (line.rfind("Max address space", 0) == 0) address_space = line;
    INFO(address_space << "\n" << server.err());
    if (server.err().find("ignored in a sanitizer build") != std::string::npos)
        CHECK_THAT(address_space, Contains("unlimited"));
    else
        CHECK_THAT(address_space, Contains("4294967296"));
}

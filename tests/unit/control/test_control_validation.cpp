// What `cmdbench serve` accepts from a peer (run_request_check), how it
// prints peer text (printable_text), and where its Listener listens.
#include "../../support/loopback_ipv6.hpp"
#include "cmdbench/control/control.hpp"
#include "cmdbench/control/printable_text.hpp"
#include "cmdbench/host/serve/run_request_check.hpp"

#include <catch2/catch.hpp>
#include <climits>
#include <cmath>
#include <future>
#include <limits>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace cmdbench;
using control::Channel;
using control::Listener;

namespace {

control::RunRequest request(double timeout_s) {
    return {"latency", "pingpong", "tcp", timeout_s, {}};
}

// Connects to host:port through the listener; both ends' views of it.
struct Connection {
    std::string client_peer, server_peer, server_local;
};
Connection connect_through(Listener &l, const std::string &host) {
    auto c = std::async(std::launch::async,
                        [&] { return Channel::connect(host, l.port(), 2000).peer_name(); });
    Channel server = l.accept(2000);
    return {c.get(), server.peer_name(), server.local_host()};
}

} // namespace

TEST_CASE("validation: a run's timeout must be finite, > 0 and <= 86400 s") {
    const double inf = std::numeric_limits<double>::infinity();
    for (double bad : {std::nan(""), -1.0, 0.0, inf, -inf, 3e6, 86400.5}) {
        INFO(bad);
        const Status checked = check_run_request(request(bad));
        REQUIRE_FALSE(checked.ok());
        CHECK_THAT(checked.error(), Catch::Contains("'timeout'") && Catch::Contains("86400"));
    }
    for (double good : {0.001, 60.0, 86400.0})
        CHECK(check_run_request(request(good)).ok());
}

TEST_CASE("validation: names are bounded") {
    auto r = request(10);
    r.run_name = std::string(1025, 'n');
    CHECK_THAT(check_run_request(r).error(), Catch::Contains("'name'") && Catch::Contains("1024"));
    r = request(10);
    r.test = std::string(129, 't');
    CHECK_THAT(check_run_request(r).error(), Catch::Contains("'test'") && Catch::Contains("128"));
    r = request(10);
    r.transport = std::string(129, 'x');
    CHECK_THAT(check_run_request(r).error(), Catch::Contains("'transport'"));
}

TEST_CASE("validation: waits are clamped, never overflowing int") {
    CHECK(clamp_wait_ms(-5) == 0);
    CHECK(clamp_wait_ms(1500) == 1500);
    CHECK(clamp_wait_ms(int64_t(3e6) * 1000) == (86400 + 5) * 1000);
    CHECK(clamp_wait_ms(INT64_MAX / 2) > 0);
}

TEST_CASE("printable_text escapes control characters and keeps UTF-8") {
    CHECK(printable_text("plain text 1.0") == "plain text 1.0");
    CHECK(printable_text("a\x1b[31mred\x07") == "a\\x1b[31mred\\x07");
    CHECK(printable_text("line\nnext\tx\x7f") == "line\\x0anext\\x09x\\x7f");
    CHECK(printable_text("caf\xc3\xa9 \xe2\x9c\x93") == "caf\xc3\xa9 \xe2\x9c\x93");
    // C1 CSI as UTF-8 (U+009B) and as a raw byte, and broken sequences.
    CHECK(printable_text("\xc2\x9b"
                         "2J") == "\\xc2\\x9b2J");
    CHECK(printable_text("\x9b"
                         "2J") == "\\x9b2J");
    CHECK(printable_text("\xe2\x9c") == "\\xe2\\x9c");
    CHECK(printable_text(std::string("nul\0x", 5)) == "nul\\x00x");
}

TEST_CASE("Listener: a list of addresses shares one port") {
    Listener l("127.0.0.1, 127.0.0.2", 0);
    CHECK(connect_through(l, "127.0.0.1").server_local == "127.0.0.1");
    CHECK(connect_through(l, "127.0.0.2").server_local == "127.0.0.2");
}

TEST_CASE("Listener: the default listens on IPv4 and IPv6 alike") {
    Listener l("", 0);
    Connection v4 = connect_through(l, "127.0.0.1");
    CHECK(v4.server_local == "127.0.0.1");
    CHECK_THAT(v4.server_peer, Catch::StartsWith("127.0.0.1:"));
    if (!loopback_has_ipv6()) {
        WARN("no ::1 on loopback: the IPv6 half is not tested");
        return;
    }
    Connection v6 = connect_through(l, "::1");
    CHECK(v6.server_local == "::1");
    CHECK_THAT(v6.server_peer, Catch::StartsWith("[::1]:"));
    CHECK(v6.client_peer == "[::1]:" + std::to_string(l.port()));
}

TEST_CASE("Listener: '::' and '127.0.0.1,::1' take both families") {
    if (!loopback_has_ipv6()) {
        WARN("no ::1 on loopback: not tested");
        return;
    }
    for (const char *hosts : {"::", "127.0.0.1,::1"}) {
        INFO(hosts);
        Listener l(hosts, 0);
        CHECK(connect_through(l, "127.0.0.1").server_local == "127.0.0.1");
        CHECK(connect_through(l, "::1").server_local == "::1");
    }
}

TEST_CASE("Listener: a port in use is an error, not skipped") {
    Listener first("127.0.0.1", 0);
    REQUIRE_THROWS_WITH(Listener("127.0.0.1", first.port()),
                        Catch::Contains("cannot listen on 127.0.0.1:"));
}

TEST_CASE("Channel: the peer's address outlives the connection") {
    Listener l("127.0.0.1", 0);
    auto c = std::async(std::launch::async,
                        [&] { return Channel::connect("127.0.0.1", l.port(), 2000); });
    Channel server = l.accept(2000);
    {
        Channel client = c.get();
        const linger abort_on_close{1, 0};
        setsockopt(client.fd(), SOL_SOCKET, SO_LINGER, &abort_on_close, sizeof abort_on_close);
    } // reset
    usleep(100 * 1000);
    CHECK_THAT(server.peer_name(), Catch::StartsWith("127.0.0.1:"));
    CHECK_THROWS_WITH(server.recv(1000),
                      Catch::Contains("127.0.0.1:") && !Catch::Contains("peer on fd"));
}

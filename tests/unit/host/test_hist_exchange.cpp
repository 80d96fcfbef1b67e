// Host services hist_send / hist_recv between two run contexts joined by a
// real control channel over TCP loopback, as a client and its server are:
// the histogram arrives whole, misuse and hostile peers give a clear error,
// and a silent peer costs no more than the run's timeout.
#include "cmdbench/control/control.hpp"
#include "cmdbench/host/plugins/host_services.hpp"
#include "cmdbench/host/run/control_peer.hpp"
#include "cmdbench/report/histogram_wire.hpp"

#include <catch2/catch.hpp>
#include <future>
#include <memory>
#include <string>

using namespace cmdbench;

namespace {

// Two peers of one run: `client` and `server`, each with its own ctx.
struct Peers {
    control::Listener listener{"127.0.0.1", 0};
    std::unique_ptr<control::Channel> client_ch, server_ch;
    std::unique_ptr<ControlPeer> client_link, server_link;
    cmdbench_ctx client, server;

    explicit Peers(int64_t timeout_ms = 10000) {
        auto accepted = std::async(std::launch::async, [&] { return listener.accept(5000); });
        client_ch = std::make_unique<control::Channel>(
            control::Channel::connect("127.0.0.1", listener.port(), 5000));
        server_ch = std::make_unique<control::Channel>(accepted.get());
        client_link = std::make_unique<ControlPeer>(*client_ch, "server");
        server_link = std::make_unique<ControlPeer>(*server_ch, "client");
        for (auto [ctx, link] :
             {std::pair{&client, client_link.get()}, {&server, server_link.get()}}) {
            ctx->peer = link;
            ctx->deadline_ns = monotonic_ns() + uint64_t(timeout_ms) * 1000000;
        }
    }
};

const cmdbench_host &host() {
    return *host_services();
}

cmdbench_hist *recorded(cmdbench_ctx &ctx, std::initializer_list<uint64_t> values) {
    cmdbench_hist *h = host().hist_create(&ctx);
    for (uint64_t v : values)
        host().hist_record(h, v);
    return h;
}

const Histogram &as_histogram(const cmdbench_hist *h) {
    return *reinterpret_cast<const Histogram *>(h);
}

} // namespace

TEST_CASE("hist_send/hist_recv: the server's histogram arrives whole at the client") {
    Peers p;
    cmdbench_hist *theirs = recorded(p.server, {5, 1200, 1200, 98765, 4000000000ULL});
    auto sent = std::async(std::launch::async, [&] { return host().hist_send(&p.server, theirs); });
    cmdbench_hist *got = nullptr;
    REQUIRE(host().hist_recv(&p.client, &got) == CMDBENCH_OK);
    REQUIRE(sent.get() == CMDBENCH_OK);
    REQUIRE(got);
    CHECK(encode_hist_wire(as_histogram(got)) == encode_hist_wire(as_histogram(theirs)));
    CHECK(as_histogram(got).summary().p50 == as_histogram(theirs).summary().p50);
    CHECK(as_histogram(got).count() == 5);
    // The copy is the client's own host histogram: it merges and reports.
    cmdbench_hist *mine = recorded(p.client, {7});
    host().hist_merge(mine, got);
    CHECK(as_histogram(mine).count() == 6);
    CHECK(p.client.hists.size() == 2);

    // In step with other control calls: a barrier after it still meets.
    auto barrier = std::async(std::launch::async, [&] { return host().barrier(&p.server, "b"); });
    CHECK(host().barrier(&p.client, "b") == CMDBENCH_OK);
    CHECK(barrier.get() == CMDBENCH_OK);
}

TEST_CASE("hist_send/hist_recv: an empty histogram and the largest one travel") {
    Peers p;
    Histogram full;
    for (uint32_t shift = 0; shift <= 56; ++shift)
        for (uint64_t low = (shift ? 128 : 0); low < 256; ++low)
            full.record(low << shift);
    cmdbench_hist *big = host().hist_create(&p.server);
    const_cast<Histogram &>(as_histogram(big)).merge(full);
    cmdbench_hist *empty = host().hist_create(&p.server);
    auto sent = std::async(std::launch::async, [&] {
        return host().hist_send(&p.server, big) == CMDBENCH_OK &&
               host().hist_send(&p.server, empty) == CMDBENCH_OK;
    });
    cmdbench_hist *got_big = nullptr, *got_empty = nullptr;
    REQUIRE(host().hist_recv(&p.client, &got_big) == CMDBENCH_OK);
    REQUIRE(host().hist_recv(&p.client, &got_empty) == CMDBENCH_OK);
    REQUIRE(sent.get());
    CHECK(encode_hist_wire(as_histogram(got_big)).size() == kHistWireMaxBytes);
    CHECK(encode_hist_wire(as_histogram(got_big)) == encode_hist_wire(full));
    CHECK(as_histogram(got_empty).count() == 0);
}

TEST_CASE("hist_send/hist_recv: calls that do not pair up fail with the reason") {
    SECTION("both send") {
        Peers p;
        cmdbench_hist *a = recorded(p.client, {1}), *b = recorded(p.server, {2});
        auto other = std::async(std::launch::async, [&] { return host().hist_send(&p.server, b); });
        CHECK(host().hist_send(&p.client, a) == CMDBENCH_ERR);
        CHECK(other.get() == CMDBENCH_ERR);
        CHECK_THAT(p.client.error, Catch::Contains("hist_send: the peer sent") &&
                                       Catch::Contains("each hist_send must meet the peer's "
                                                       "hist_recv"));
    }
    SECTION("both receive") {
        Peers p;
        cmdbench_hist *x = nullptr, *y = nullptr;
        auto other =
            std::async(std::launch::async, [&] { return host().hist_recv(&p.server, &y); });
        CHECK(host().hist_recv(&p.client, &x) == CMDBENCH_ERR);
        CHECK(other.get() == CMDBENCH_ERR);
        CHECK(x == nullptr);
        CHECK_THAT(p.client.error, Catch::Contains("hist_recv: the peer sent no histogram"));
    }
    SECTION("the peer is at a barrier") {
        Peers p;
        auto other = std::async(std::launch::async, [&] { return host().barrier(&p.server, "x"); });
        cmdbench_hist *x = nullptr;
        CHECK(host().hist_recv(&p.client, &x) == CMDBENCH_ERR);
        CHECK_THAT(p.client.error,
                   Catch::StartsWith("hist_recv: ") && Catch::Contains("unexpected message type"));
        other.wait();
    }
    SECTION("NULL arguments") {
        Peers p;
        CHECK(host().hist_send(&p.client, nullptr) == CMDBENCH_ERR);
        CHECK(p.client.error == "hist_send: no histogram (NULL)");
        CHECK(host().hist_recv(&p.client, nullptr) == CMDBENCH_ERR);
        CHECK_THAT(p.client.error, Catch::Contains("out is NULL"));
    }
    SECTION("a run without a peer") {
        cmdbench_ctx alone;
        cmdbench_hist *x = nullptr;
        CHECK(host().hist_recv(&alone, &x) == CMDBENCH_ERR);
        CHECK(alone.error == "hist_recv: exchange: this run has no peer");
    }
}

TEST_CASE("hist_recv: a hostile peer's bytes are refused, never trusted") {
    Peers p;
    // What a peer could send with plain exchange: garbage, a few bytes, a wire whose
    // bucket counts do not add up.
    std::vector<uint8_t> wire = encode_hist_wire([] {
        Histogram h;
        h.record(10);
        h.record(20);
        return h;
    }());
    wire[4] ^= 0x40; // the total count
    const std::vector<std::pair<std::string, std::vector<uint8_t>>> cases = {
        {"not a cmdbench histogram", std::vector<uint8_t>(64, 'G')},
        {"fewer than the 48 of the header", {'G', 'E', 'T', ' ', '/'}},
        {"do not add up", wire},
    };
    for (const auto &[why, bytes] : cases) {
        auto other = std::async(std::launch::async, [&, b = bytes] {
            uint32_t got = 0;
            return host().exchange(&p.server, b.data(), uint32_t(b.size()), nullptr, 0, &got);
        });
        cmdbench_hist *x = nullptr;
        CHECK(host().hist_recv(&p.client, &x) == CMDBENCH_ERR);
        CHECK(other.get() == CMDBENCH_OK);
        CHECK(x == nullptr);
        CHECK_THAT(p.client.error, Catch::StartsWith("hist_recv: from the peer: bad histogram: ") &&
                                       Catch::Contains(why));
    }
    CHECK(p.client.hists.empty());
}

TEST_CASE("hist_recv: a silent peer costs the run's timeout, no more") {
    Peers p(300);
    cmdbench_hist *x = nullptr;
    const uint64_t start = monotonic_ns();
    CHECK(host().hist_recv(&p.client, &x) == CMDBENCH_ERR);
    const double waited_ms = double(monotonic_ns() - start) / 1e6;
    CHECK(waited_ms >= 250);
    CHECK(waited_ms < 3000);
    CHECK_THAT(p.client.error, Catch::StartsWith("hist_recv: "));
}

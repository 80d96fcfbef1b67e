// The peer protocol of plugin-support (barrier, exchange, set-up swap)
// between two in-memory sides: a fake host whose barrier and exchange pair
// the sides' calls up in order, as the control channel does.
#include <catch2/catch.hpp>
#include <cmdbench/plugin-support/peer_protocol.hpp>
#include <cmdbench/plugin-support/run_error.hpp>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <vector>

using cmdbench::support::Peer;
using cmdbench::support::RunError;
using cmdbench::support::SetupSwap;

namespace {

// Two sides' mailboxes; a call posts to the other side and takes the first
// message posted to its own, or times out.
struct Link {
    struct Message {
        bool barrier;
        std::vector<uint8_t> bytes;
    };
    std::mutex m;
    std::condition_variable cv;
    std::deque<Message> inbox[2];
    std::chrono::milliseconds timeout{5000};
};

struct Side {
    Link *link;
    int index; // 0 client, 1 server
};

int call(cmdbench_ctx *ctx, Link::Message out, Link::Message &in) {
    Side &side = *reinterpret_cast<Side *>(ctx);
    Link &link = *side.link;
    std::unique_lock<std::mutex> lock(link.m);
    link.inbox[1 - side.index].push_back(std::move(out));
    link.cv.notify_all();
    std::deque<Link::Message> &mine = link.inbox[side.index];
    if (!link.cv.wait_for(lock, link.timeout, [&] { return !mine.empty(); }))
        return CMDBENCH_ERR_TIMEOUT;
    in = std::move(mine.front());
    mine.pop_front();
    return CMDBENCH_OK;
}

int fake_barrier(cmdbench_ctx *ctx, const char *name) {
    Link::Message in;
    const int status = call(ctx, {true, std::vector<uint8_t>(name, name + std::strlen(name))}, in);
    if (status != CMDBENCH_OK) return status;
    return in.barrier && std::string(in.bytes.begin(), in.bytes.end()) == name ? CMDBENCH_OK
                                                                               : CMDBENCH_ERR;
}

int fake_exchange(cmdbench_ctx *ctx, const void *data, uint32_t len, void *buf, uint32_t cap,
                  uint32_t *got) {
    const auto *bytes = static_cast<const uint8_t *>(data);
    Link::Message in;
    const int status = call(ctx, {false, std::vector<uint8_t>(bytes, bytes + len)}, in);
    if (status != CMDBENCH_OK) return status;
    if (in.barrier || in.bytes.size() > cap) return CMDBENCH_ERR;
    if (!in.bytes.empty()) std::memcpy(buf, in.bytes.data(), in.bytes.size());
    *got = static_cast<uint32_t>(in.bytes.size());
    return CMDBENCH_OK;
}

cmdbench_host fake_host() {
    cmdbench_host host{};
    host.barrier = fake_barrier;
    host.exchange = fake_exchange;
    return host;
}

// A client and a server over one link.
struct Pair {
    Link link;
    Side client_side{&link, 0}, server_side{&link, 1};
    cmdbench_host host = fake_host();
    Peer client{host, reinterpret_cast<cmdbench_ctx *>(&client_side), true, "t"};
    Peer server{host, reinterpret_cast<cmdbench_ctx *>(&server_side), false, "t"};
};

// What a side's steps threw ("" if nothing).
std::string error_of(const std::function<void()> &steps) {
    try {
        steps();
    } catch (const RunError &e) {
        return e.what();
    }
    return "";
}

// Runs both sides at once; returns {client's error, server's error}.
std::pair<std::string, std::string> run_both(const std::function<void()> &client,
                                             const std::function<void()> &server) {
    auto s = std::async(std::launch::async, [&] { return error_of(server); });
    const std::string c = error_of(client);
    return {c, s.get()};
}

constexpr SetupSwap kSock{0x534f434b, 1, "count", "sock-steps"};

} // namespace

TEST_CASE("peer protocol: barrier round trip", "[plugin-support]") {
    Pair p;
    const auto errors =
        run_both([&] { p.client.barrier("ready"); }, [&] { p.server.barrier("ready"); });
    CHECK(errors.first.empty());
    CHECK(errors.second.empty());
}

TEST_CASE("peer protocol: a failed barrier names it and the other side", "[plugin-support]") {
    Pair p;
    const auto errors = run_both([&] { p.client.barrier("a"); }, [&] { p.server.barrier("b"); });
    CHECK(errors.first == "t: barrier \"a\" with the server failed");
    CHECK(errors.second == "t: barrier \"b\" with the client failed");
}

TEST_CASE("peer protocol: exchange round trip", "[plugin-support]") {
    Pair p;
    std::vector<uint8_t> at_client, at_server;
    const auto errors = run_both(
        [&] {
            at_client = p.client.exchange({1, 2, 3}, "figures");
        },
        [&] { at_server = p.server.exchange({}, "figures"); });
    CHECK(errors.first.empty());
    CHECK(errors.second.empty());
    CHECK(at_client.empty());
    CHECK(at_server == std::vector<uint8_t>{1, 2, 3});

    uint8_t small[2];
    const auto overflow = run_both(
        [&] {
            p.client.exchange({1, 2, 3}, "figures");
        },
        [&] { p.server.exchange(nullptr, 0, small, sizeof small, "figures"); });
    CHECK(overflow.second == "t: figures: exchange with the client failed");
}

TEST_CASE("peer protocol: a side that never comes times out", "[plugin-support]") {
    Pair p;
    p.link.timeout = std::chrono::milliseconds(50);
    try {
        p.client.barrier("lonely");
        FAIL("the barrier returned without the server");
    } catch (const RunError &e) {
        CHECK(e.status == CMDBENCH_ERR_TIMEOUT);
        CHECK(std::string(e.what()) == "t: barrier \"lonely\" with the server timed out");
    }
    p.link.inbox[1].clear();
    try {
        p.server.exchange({7}, "port");
        FAIL("the exchange returned without the client");
    } catch (const RunError &e) {
        CHECK(e.status == CMDBENCH_ERR_TIMEOUT);
        CHECK(std::string(e.what()) == "t: port: exchange with the client timed out");
    }
}

TEST_CASE("peer protocol: set-up swap hands over the other side's payload", "[plugin-support]") {
    Pair p;
    std::vector<uint8_t> at_client, at_server;
    const auto errors = run_both([&] { at_client = kSock.swap(p.client, 100, {}); },
                                 [&] {
                                     at_server = kSock.swap(p.server, 100, {0x12, 0x34});
                                 });
    CHECK(errors.first.empty());
    CHECK(errors.second.empty());
    CHECK(at_client == std::vector<uint8_t>{0x12, 0x34});
    CHECK(at_server.empty());
}

TEST_CASE("peer protocol: set-up magic mismatch names the test", "[plugin-support]") {
    Pair p;
    constexpr SetupSwap other{0x434d5354, 1, "count", "cm-steps"};
    const auto errors =
        run_both([&] { kSock.swap(p.client, 1); }, [&] { other.swap(p.server, 1); });
    CHECK(errors.first ==
          "t: the server is not running sock-steps (set-up magic 0x434d5354, expected 0x534f434b)");
    CHECK(errors.second ==
          "t: the client is not running cm-steps (set-up magic 0x534f434b, expected 0x434d5354)");
}

TEST_CASE("peer protocol: set-up version mismatch names both versions", "[plugin-support]") {
    Pair p;
    constexpr SetupSwap newer{kSock.magic, 2, "count", "sock-steps"};
    const auto errors =
        run_both([&] { kSock.swap(p.client, 1); }, [&] { newer.swap(p.server, 1); });
    CHECK(errors.first == "t: the server sent set-up version 2, this client speaks 1");
    CHECK(errors.second == "t: the client sent set-up version 1, this server speaks 2");
}

TEST_CASE("peer protocol: set-up count mismatch names both counts", "[plugin-support]") {
    Pair p;
    const auto errors =
        run_both([&] { kSock.swap(p.client, 7); }, [&] { kSock.swap(p.server, 5); });
    CHECK(errors.first == "t: count mismatch: the server has count = 5, this client has 7");
    CHECK(errors.second == "t: count mismatch: the client has count = 7, this server has 5");
}

TEST_CASE("peer protocol: set-up between two clients, or from a short message",
          "[plugin-support]") {
    Pair p;
    Peer second_client{p.host, reinterpret_cast<cmdbench_ctx *>(&p.server_side), true, "t"};
    const auto both =
        run_both([&] { kSock.swap(p.client, 1); }, [&] { kSock.swap(second_client, 1); });
    CHECK(both.first == "t: both sides are clients");

    // Magic and version only: a peer that speaks the version but sent less.
    const auto shortened = run_both([&] { kSock.swap(p.client, 1); },
                                    [&] {
                                        p.server.exchange({0x53, 0x4f, 0x43, 0x4b, 0, 1}, "x");
                                    });
    CHECK(shortened.first == "t: the server sent a set-up of 6 bytes");
}

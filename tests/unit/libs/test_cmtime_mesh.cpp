// cmtime's mesh on loopback, three peers in one process: what a peer that
// fails on its own reports (Mesh::failure_verdict).
#include "cmdbench/control/control.hpp"
#include "mesh.hpp"
#include "mesh_detail.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <future>
#include <memory>
#include <string>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using cmdbench::Mesh;
using cmdbench::MeshError;

namespace {

// Three peers joined on a free loopback port, by index (0: the controller).
std::vector<std::unique_ptr<Mesh>> join_three() {
    cmdbench::MeshOptions o;
    o.host = "127.0.0.1";
    o.port = std::to_string(cmdbench::control::Listener("127.0.0.1", 0).port());
    o.peers = 3;
    o.terms = "version=1";
    o.timeout_ms = 10000;
    o.connect_window_ms = 10000;
    std::vector<std::future<std::unique_ptr<Mesh>>> joining;
    for (int i = 0; i < 3; ++i)
        joining.push_back(std::async(std::launch::async, [o] { return Mesh::join(o); }));
    std::vector<std::unique_ptr<Mesh>> peers;
    for (auto &j : joining)
        peers.push_back(j.get());
    std::sort(peers.begin(), peers.end(),
              [](const auto &a, const auto &b) { return a->index() < b->index(); });
    REQUIRE(peers[0]->controller());
    return peers;
}

// What the controller's barrier ended with.
std::string barrier_error(Mesh &controller) {
    try {
        controller.barrier("b");
    } catch (const MeshError &e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_CASE("a leaf that fails after another peer was lost reports that peer") {
    auto peers = join_three();
    peers[1].reset(); // lost
    const std::string lost = barrier_error(*peers[0]);
    REQUIRE_THAT(lost, Catch::StartsWith(peers[0]->peer_label(1)));
    // Peer 2 then fails on its own, as a client does whose server left the
    // ending job: the job's first failure is what it reports.
    CHECK(peers[2]->failure_verdict("connect: Connection refused", 10000) == lost);
}

TEST_CASE("a leaf's own failure: it says it as is, the others hear it named") {
    auto peers = join_three();
    auto leaf = std::async(std::launch::async, [&peers] {
        return peers[1]->failure_verdict("connect: Connection refused", 10000);
    });
    const std::string named = barrier_error(*peers[0]);
    CHECK(named == peers[0]->peer_label(1) + " failed: connect: Connection refused");
    CHECK(leaf.get() == "connect: Connection refused");
    CHECK_THROWS_WITH(peers[2]->barrier("b"), named);
}

TEST_CASE("the controller's own failure is the verdict, and without a controller there is none") {
    auto peers = join_three();
    const std::string why = "accept: Too many open files";
    CHECK(peers[0]->failure_verdict(why, 10000) == why);
    const std::string named = peers[0]->peer_label(0) + " failed: " + why;
    CHECK_THROWS_WITH(peers[1]->barrier("b"), named);
    CHECK(peers[2]->failure_verdict("connect: Connection refused", 10000) == named);
    peers[0].reset();
    CHECK(peers[1]->failure_verdict("connect: Connection refused", 10000) ==
          "connect: Connection refused");
}

// Mesh::check_peers looks at a link while another thread may be reading
// it: in the middle of a frame that thread has begun, it must see nothing
// to act on (it once read the payload's bytes as a bad magic and ended the
// whole run under load); an Error frame at the head, or the end, it reports.
TEST_CASE("mesh liveness: the middle of a frame is not an error, an Error frame is") {
    using namespace cmdbench;
    int fds[2];
    REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
    const auto frame =
        control::encode(control::make_string(control::MsgType::Barrier, std::string(10, 'x')));
    REQUIRE(::write(fds[0], frame.data(), frame.size()) == ssize_t(frame.size()));
    bool ended = false;
    CHECK(mesh_detail::peek_link(fds[1], ended).empty()); // ordinary data at the head
    // Another reader has taken the header: the payload's length-prefixed
    // string is at the head now.
    std::vector<uint8_t> header(control::kHeaderSize);
    REQUIRE(::recv(fds[1], header.data(), header.size(), 0) == ssize_t(header.size()));
    CHECK(mesh_detail::peek_link(fds[1], ended).empty());
    CHECK_FALSE(ended);
    std::vector<uint8_t> rest(frame.size() - header.size());
    REQUIRE(::recv(fds[1], rest.data(), rest.size(), 0) == ssize_t(rest.size()));

    const auto error = control::encode(control::make_string(control::MsgType::Error, "boom"));
    REQUIRE(::write(fds[0], error.data(), error.size()) == ssize_t(error.size()));
    CHECK(mesh_detail::peek_link(fds[1], ended) == "boom");
    CHECK_FALSE(ended);
    std::vector<uint8_t> taken(error.size());
    REQUIRE(::recv(fds[1], taken.data(), taken.size(), 0) == ssize_t(taken.size()));
    ::close(fds[0]);
    CHECK(mesh_detail::peek_link(fds[1], ended) == "its control connection closed");
    CHECK(ended);
    ::close(fds[1]);
}

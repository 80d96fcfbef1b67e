// cmtime's mesh on loopback, three peers in one process: what a peer that
// fails on its own reports (Mesh::failure_verdict).
#include "cmdbench/control/control.hpp"
#include "mesh.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <future>
#include <memory>
#include <string>
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

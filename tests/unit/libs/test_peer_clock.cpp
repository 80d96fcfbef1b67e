// libs/bidir: the peer-clock estimate between two "peers" in two threads
// whose clocks differ by a known amount, and the time line of the rows.
#include "cmdbench/bidir/bidir_rows.hpp"
#include "cmdbench/bidir/peer_clock.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

namespace {

// Two peers' exchange, as the host's: each side hands its message over and
// waits for the other's.
class Wire {
  public:
    std::vector<uint8_t> exchange(int side, const std::vector<uint8_t> &out) {
        std::unique_lock<std::mutex> lock(m_);
        box_[side] = out;
        cv_.notify_all();
        cv_.wait(lock, [&] { return box_[1 - side].has_value(); });
        std::vector<uint8_t> in = *box_[1 - side];
        box_[1 - side].reset();
        cv_.notify_all();
        // The peer may not have taken ours yet: wait, so that the next round
        // starts clean.
        cv_.wait(lock, [&] { return !box_[side].has_value(); });
        return in;
    }

  private:
    std::mutex m_;
    std::condition_variable cv_;
    std::optional<std::vector<uint8_t>> box_[2];
};

uint64_t client_now() {
    return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::steady_clock::now().time_since_epoch())
                        .count());
}

constexpr int64_t kSkew = 5000000000; // the server's clock is 5 s ahead

uint64_t server_now() {
    return client_now() + uint64_t(kSkew);
}

} // namespace

TEST_CASE("the peer clock offset is found within the bound it states") {
    Wire wire;
    cmdbench::bidir::PeerClock server_side{1, 1};
    std::thread server([&] {
        server_side = cmdbench::bidir::measure_peer_clock(
            [&](const std::vector<uint8_t> &out) { return wire.exchange(1, out); }, server_now,
            false);
    });
    const cmdbench::bidir::PeerClock clock = cmdbench::bidir::measure_peer_clock(
        [&](const std::vector<uint8_t> &out) { return wire.exchange(0, out); }, client_now, true);
    server.join();
    INFO("offset " << clock.offset_ns << " +- " << clock.uncertainty_ns);
    CHECK(std::llabs(clock.offset_ns - kSkew) <= int64_t(clock.uncertainty_ns));
    CHECK(clock.uncertainty_ns < 1000000000);
    CHECK(clock.to_client(uint64_t(kSkew) + 1000) == uint64_t(1000 + kSkew - clock.offset_ns));
    // Only the client learns it.
    CHECK(server_side.offset_ns == 0);
    CHECK(server_side.uncertainty_ns == 0);
}

TEST_CASE("the time line: union, overlap, names") {
    cmdbench::bidir::Timeline t;
    t.c2s = {100, 400};
    t.s2c = {200, 600};
    CHECK(t.origin_ns() == 100);
    CHECK(t.union_ns() == 500);
    CHECK(t.overlap_ns() == 200);
    t.s2c = {500, 600}; // one after the other: no overlap
    CHECK(t.overlap_ns() == 0);
    CHECK(cmdbench::bidir::row_name("64k", cmdbench::bidir::Direction::ClientToServer) ==
          "64k c2s");
    CHECK(cmdbench::bidir::row_name("64k", cmdbench::bidir::Direction::ServerToClient) ==
          "64k s2c");
    CHECK(cmdbench::bidir::row_name("64k", cmdbench::bidir::Direction::Both) == "64k bidir");
}

// The start line of runs together (pairs, rails): no member passes it
// before every other has arrived or left, and none waits past its limit
// or an interrupt.
#include "cmdbench/host/execute/start_barrier.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <thread>
#include <vector>

using namespace cmdbench;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

} // namespace

TEST_CASE("start barrier: the first arrivals wait for the last one") {
    constexpr size_t kMembers = 4;
    StartBarrier line(kMembers);
    std::atomic<bool> interrupted{false};
    const auto t0 = Clock::now();
    std::vector<double> arrived(kMembers), passed(kMembers);
    std::vector<std::thread> members;
    for (size_t i = 0; i < kMembers; ++i)
        members.emplace_back([&, i] {
            // Member i arrives 0.1 s after member i - 1: the last at 0.3 s.
            std::this_thread::sleep_for(milliseconds(100 * int(i)));
            arrived[i] = seconds_since(t0);
            line.arrive(milliseconds(10000), interrupted);
            passed[i] = seconds_since(t0);
        });
    for (auto &t : members)
        t.join();
    const double last = arrived[kMembers - 1];
    CHECK(last >= 0.3);
    for (size_t i = 0; i < kMembers; ++i) {
        INFO("member " << i << " arrived at " << arrived[i] << " s, passed at " << passed[i]);
        CHECK(passed[i] >= last);
        CHECK(passed[i] < last + 1.0); // not held after the last arrival
    }
}

TEST_CASE("start barrier: a member that leaves does not hold the others") {
    StartBarrier line(3);
    std::atomic<bool> interrupted{false};
    const auto t0 = Clock::now();
    std::thread early([&] { line.arrive(milliseconds(10000), interrupted); });
    std::this_thread::sleep_for(milliseconds(100));
    line.leave(); // its run ended before its request
    std::thread late([&] { line.arrive(milliseconds(10000), interrupted); });
    early.join();
    late.join();
    CHECK(seconds_since(t0) < 1.0);
}

TEST_CASE("start barrier: a member that never comes costs the limit, no more") {
    StartBarrier line(2);
    std::atomic<bool> interrupted{false};
    const auto t0 = Clock::now();
    line.arrive(milliseconds(300), interrupted);
    const double waited = seconds_since(t0);
    CHECK(waited >= 0.3);
    CHECK(waited < 1.0);
}

TEST_CASE("start barrier: an interrupt ends the wait") {
    StartBarrier line(2);
    std::atomic<bool> interrupted{false};
    const auto t0 = Clock::now();
    std::thread ctrl_c([&] {
        std::this_thread::sleep_for(milliseconds(200));
        interrupted = true;
    });
    line.arrive(milliseconds(10000), interrupted);
    ctrl_c.join();
    const double waited = seconds_since(t0);
    CHECK(waited >= 0.2);
    CHECK(waited < 1.0); // the 100 ms poll notices it, not the 10 s limit
}

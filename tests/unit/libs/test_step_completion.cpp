// cmtime's step completion (cmdbench/cmtime/step_table.hpp): the last arrival
// stamps the step's end and wakes the waiting thread; waits end on stop.
#include "cmdbench/cmtime/step_table.hpp"
#include "cmdbench/cmtime/work_queue.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace cmdbench::cmtime;
using Clock = std::chrono::steady_clock;

TEST_CASE("the last of many arrivals stamps the step's end once, before done counts it") {
    constexpr uint64_t n = 4000;
    StepCompletion c;
    Interval end, also;
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            for (uint64_t i = 0; i < n / 4; ++i)
                c.complete(n, end, &also);
        });
    for (auto &t : threads)
        t.join();
    CHECK(c.done.load() == n);
    CHECK(end.end != 0);
    CHECK(also.end == end.end);
}

TEST_CASE("a waiter is woken by the arrival that completes the count, not by its timeout") {
    constexpr uint64_t n = 1000;
    Wakeup wake;
    StepCompletion c;
    c.wake = &wake;
    Interval end;
    std::thread worker([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50)); // the waiter sleeps first
        for (uint64_t i = 0; i < n; ++i)
            c.complete(n, end);
    });
    const auto t0 = Clock::now();
    // Without the notification this returns false after 30 s.
    const bool reached = wake.wait(c.done, n, std::chrono::seconds(30));
    const auto waited = Clock::now() - t0;
    worker.join();
    CHECK(reached);
    CHECK(waited < std::chrono::seconds(10));
}

TEST_CASE("wait_count with a Wakeup returns at once when the count is already there") {
    Wakeup wake;
    std::atomic<uint64_t> done{5};
    int stops = 0;
    wait_count(
        done, 5, [&] { ++stops; }, wake);
    CHECK(stops == 0);
}

TEST_CASE("wait_count with a Wakeup runs the stop check meanwhile and ends with its exception") {
    Wakeup wake;
    std::atomic<uint64_t> done{0};
    int stops = 0;
    const auto t0 = Clock::now();
    CHECK_THROWS_WITH(wait_count(
                          done, 1,
                          [&] {
                              if (++stops == 3) throw std::runtime_error("deadline");
                          },
                          wake),
                      "deadline");
    CHECK(stops == 3);
    // Three stop periods of 20 ms: not a busy loop, not a long sleep.
    CHECK(Clock::now() - t0 >= std::chrono::milliseconds(40));
    CHECK(Clock::now() - t0 < std::chrono::seconds(10));
}

TEST_CASE("a waiter's smaller goal (wake_at) wakes it before the whole count is done") {
    constexpr uint64_t n = 1000, goal = 10;
    Wakeup wake;
    StepCompletion c;
    c.wake = &wake;
    Interval end;
    std::atomic<bool> waiter_back{false};
    c.wake_at.store(goal);
    std::thread worker([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50)); // the waiter sleeps first
        for (uint64_t i = 0; i < goal; ++i)
            c.complete(n, end);
        // The rest only once the waiter is back: only the goal can wake it.
        while (!waiter_back.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        for (uint64_t i = goal; i < n; ++i)
            c.complete(n, end);
    });
    const auto t0 = Clock::now();
    const bool reached = wake.wait(c.done, goal, std::chrono::seconds(30));
    const auto waited = Clock::now() - t0;
    waiter_back = true;
    worker.join();
    CHECK(reached);
    CHECK(waited < std::chrono::seconds(10));
    CHECK(c.done.load() == n);
}

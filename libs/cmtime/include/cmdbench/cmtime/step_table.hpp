// cmtime's 17 timed steps: per-connection and
// whole-step stamps, and the statistics cmtime prints from them. Shared by
// cm-steps, sock-steps and the cmdbench-cmtime front end; no RDMA here.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace cmdbench::cmtime {

enum Step : int {
    kFullConnect = 0,
    kCreateId,
    kBindAddr,
    kResolveAddr,
    kResolveRoute,
    kCreateQp,
    kInitQpAttr,
    kInitQp,
    kRtrQpAttr,
    kRtrQp,
    kRtsQpAttr,
    kRtsQp,
    kConnect,
    kEstablish,
    kDisconnect,
    kDestroyId,
    kDestroyQp,
    kStepCount
};

// The row label cmtime prints for a step ("full connect", "create id", ...).
const char *step_label(int step);

// CLOCK_MONOTONIC in nanoseconds; never 0 (0 means "not stamped").
uint64_t now_ns();

// One start/end pair; 0 = never stamped.
struct Interval {
    uint64_t start = 0, end = 0;
    void begin() { start = now_ns(); }
    void finish() { end = now_ns(); }
};

// Lets a thread sleep until a count reaches its target, woken by the thread
// that reaches it. Polling instead (a wake-up every millisecond, in each
// process) took the workers, the event thread and the peer ~15% of the
// connect step's time in the emulated lab guest (bench/README.md).
class Wakeup {
  public:
    void notify() {
        { std::lock_guard<std::mutex> lock(mu_); } // orders with a waiter's check
        cv_.notify_all();
    }
    // True once done >= want; false after `timeout` without.
    bool wait(const std::atomic<uint64_t> &done, uint64_t want, std::chrono::nanoseconds timeout) {
        std::unique_lock<std::mutex> lock(mu_);
        return cv_.wait_for(lock, timeout, [&] { return done.load() >= want; });
    }

  private:
    std::mutex mu_;
    std::condition_variable cv_;
};

// Counts the connections done with one step (or phase) of `n`, from any
// thread. The last to arrive stamps the step's end (and `also`'s, when
// given) itself, so the step's total leaves out the waiting thread's
// wake-up; `done`, what that thread waits for, counts it only after the
// stamp, and the arrival that takes `done` to `n` notifies `wake` (if set),
// as does the one that takes it to `wake_at` (a waiter's smaller goal).
struct StepCompletion {
    void complete(uint64_t n, Interval &end, Interval *also = nullptr) {
        if (arrived.fetch_add(1) + 1 == n) {
            const uint64_t now = now_ns();
            end.end = now;
            if (also) also->end = now;
        }
        // Sequentially consistent with the waiter's store of wake_at and its
        // load of done: either this sees its goal, or it sees this count.
        const uint64_t d = done.fetch_add(1) + 1;
        if ((d == n || d == wake_at.load()) && wake) wake->notify();
    }
    std::atomic<uint64_t> arrived{0}, done{0};
    std::atomic<uint64_t> wake_at{UINT64_MAX};
    Wakeup *wake = nullptr;
};

// The stamps of one connection: one interval per step (272 bytes).
struct ConnTimes {
    Interval step[kStepCount];
};

// Every stamp of one test iteration on one instance.
struct StepTimes {
    explicit StepTimes(size_t conns) : conn(conns) {}
    Interval total[kStepCount];  // T[s]: the whole step, all connections
    std::vector<ConnTimes> conn; // t[c][s]
};

// What one row of cmtime's table shows for a step, plus the per-connection
// durations in nanoseconds for histograms (p50/p99).
struct StepStats {
    uint64_t total_us = 0; // T[s].end - T[s].start
    uint64_t sum_us = 0;   // sum of per-connection durations (0 for full connect)
    uint64_t max_us = 0, min_us = 0;
    uint64_t samples = 0;            // connections that contributed
    std::vector<uint64_t> sample_ns; // their durations, nanoseconds
};

// The statistics of one instance (or of several merged), as cmtime's
// show_perf() computes them, with `conns` as N.
struct StepReport {
    uint64_t conns = 0;
    uint32_t threads = 1;
    bool real_qps = false; // table label qp_conn, else cm_conn
    StepStats step[kStepCount];
};

StepReport compute_report(const StepTimes &times, uint32_t threads, bool real_qps);

// Adds another instance's figures: sums, extremes and samples combine, N adds
// up, and each step's total is the longest of the instances' totals.
void merge_report(StepReport &into, const StepReport &from);

// cmtime's exact table: label line, threads line, header, 17 rows;
// every line ends with '\n'.
std::string format_table(const StepReport &report);

// Big-endian serialisation for shipping a report between peers.
std::vector<uint8_t> encode_report(const StepReport &report);
// Throws std::runtime_error on malformed input.
StepReport decode_report(const std::vector<uint8_t> &bytes);

// The figures alone, without the per-connection samples (those travel as
// histograms, step_host.hpp): 712 bytes whatever the connection count.
// decode_figures leaves sample_ns empty; throws std::runtime_error.
std::vector<uint8_t> encode_figures(const StepReport &report);
StepReport decode_figures(const std::vector<uint8_t> &bytes);

} // namespace cmdbench::cmtime

// The start line of clients run together: each waits until every one has
// arrived or dropped out, so that none starts its test alone.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace cmdbench {

class StartBarrier {
  public:
    explicit StartBarrier(size_t members) : waiting_(members) {}

    // Waits for the others, at most `limit` (the run's own timeout: a member
    // stuck on its way is that run's failure, not a hang), and no longer
    // than an interrupt.
    void arrive(std::chrono::milliseconds limit, const std::atomic<bool> &interrupted) {
        std::unique_lock<std::mutex> lock(mutex_);
        count_down();
        const auto until = std::chrono::steady_clock::now() + limit;
        while (waiting_ > 0 && !interrupted && std::chrono::steady_clock::now() < until)
            ready_.wait_for(lock, std::chrono::milliseconds(100));
    }
    // A member that will not arrive (its run ended before its request).
    void leave() {
        std::lock_guard<std::mutex> lock(mutex_);
        count_down();
    }

  private:
    void count_down() {
        if (waiting_ > 0 && --waiting_ == 0) ready_.notify_all();
    }
    std::mutex mutex_;
    std::condition_variable ready_;
    size_t waiting_;
};

} // namespace cmdbench

// cmtime's work queue: a FIFO of items run to completion
// by `threads` workers. Each item is its own node, so one connection may be
// queued more than once at a time (upstream's embedded link forbids that).
#pragma once
#include "cmdbench/cmtime/step_table.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cmdbench::cmtime {

class WorkQueue {
  public:
    explicit WorkQueue(unsigned threads);
    ~WorkQueue(); // drops queued items and joins the workers
    WorkQueue(const WorkQueue &) = delete;
    WorkQueue &operator=(const WorkQueue &) = delete;

    void push(std::function<void()> item);
    // Items that threw: the first message is kept, later items still run.
    void fail(const std::string &why);
    bool failed() const { return failed_.load(std::memory_order_acquire); }
    std::string failure() const;

  private:
    void work();

    std::mutex mu_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> items_;
    bool stopping_ = false;
    std::atomic<bool> failed_{false};
    mutable std::mutex failure_mu_;
    std::string failure_;
    std::vector<std::thread> workers_;
};

// Busy-waits (yield, then sleeps growing up to max_sleep_ns) until done >=
// want. `stop` is called about every millisecond and throws to end the wait
// (deadline, cancel, failed worker). For counts nobody signals (a window of
// outstanding requests); a whole step's count has its Wakeup.
void wait_count(const std::atomic<uint64_t> &done, uint64_t want, const std::function<void()> &stop,
                long max_sleep_ns = 1000000);

// Sleeps until done >= want, woken by `wake` (see StepCompletion); `stop`
// runs every 20 ms meanwhile and throws to end the wait.
void wait_count(const std::atomic<uint64_t> &done, uint64_t want, const std::function<void()> &stop,
                Wakeup &wake);

} // namespace cmdbench::cmtime

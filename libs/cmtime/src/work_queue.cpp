// Work queue and bounded completion waits (see work_queue.hpp).
#include "cmdbench/cmtime/work_queue.hpp"

#include "cmdbench/cmtime/step_table.hpp"

#include <algorithm>
#include <exception>
#include <sched.h>
#include <time.h>

namespace cmdbench::cmtime {

WorkQueue::WorkQueue(unsigned threads) {
    for (unsigned i = 0; i < threads; ++i)
        workers_.emplace_back([this] { work(); });
}

WorkQueue::~WorkQueue() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        stopping_ = true;
        items_.clear();
    }
    cv_.notify_all();
    for (auto &t : workers_)
        t.join();
}

void WorkQueue::push(std::function<void()> item) {
    {
        std::lock_guard<std::mutex> lock(mu_);
        items_.push_back(std::move(item));
    }
    cv_.notify_one();
}

void WorkQueue::fail(const std::string &why) {
    std::lock_guard<std::mutex> lock(failure_mu_);
    if (!failed_.load()) failure_ = why;
    failed_.store(true, std::memory_order_release);
}

std::string WorkQueue::failure() const {
    std::lock_guard<std::mutex> lock(failure_mu_);
    return failure_;
}

void WorkQueue::work() {
    for (;;) {
        std::function<void()> item;
        {
            std::unique_lock<std::mutex> lock(mu_);
            cv_.wait(lock, [this] { return stopping_ || !items_.empty(); });
            if (stopping_) return;
            item = std::move(items_.front());
            items_.pop_front();
        }
        try {
            item();
        } catch (const std::exception &e) {
            fail(e.what());
        } catch (...) {
            fail("work item failed");
        }
    }
}

void wait_count(const std::atomic<uint64_t> &done, uint64_t want, const std::function<void()> &stop,
                Wakeup &wake) {
    // 20 ms: a stop (deadline, interrupt, a failure elsewhere) is noticed
    // that late at most, for 50 wake-ups a second instead of 1,000.
    while (!wake.wait(done, want, std::chrono::milliseconds(20)))
        stop();
}

void wait_count(const std::atomic<uint64_t> &done, uint64_t want, const std::function<void()> &stop,
                long max_sleep_ns) {
    uint64_t next_check = now_ns() + 1000000;
    unsigned spins = 0;
    long sleep_ns = std::min(20000L, max_sleep_ns);
    while (done.load(std::memory_order_acquire) < want) {
        // Yield a little (cmtime's sched_yield loop), then sleep, longer and
        // longer up to max_sleep_ns: a spinning or often waking waiter takes CPU time
        // from the workers, the event thread and the peer on small machines
        // (and much more in an emulated guest). The steps' end stamps do not
        // depend on it: the last completion takes them.
        if (++spins < 64) {
            sched_yield();
        } else {
            const timespec ts{0, sleep_ns};
            nanosleep(&ts, nullptr);
            sleep_ns = std::min(sleep_ns * 2, max_sleep_ns);
        }
        const uint64_t now = now_ns();
        if (now >= next_check) {
            stop();
            next_check = now + 1000000;
        }
    }
}

} // namespace cmdbench::cmtime

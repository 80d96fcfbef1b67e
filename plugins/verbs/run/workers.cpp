// Worker threads of a measured step (see workers.hpp).
#include "run/workers.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace cmdbench::verbs {
namespace {

// A failure caused by the abort of another thread says nothing new.
bool is_echo(const std::exception_ptr &e) {
    try {
        std::rethrow_exception(e);
    } catch (const RunError &r) {
        return r.status == CMDBENCH_ERR_CANCELLED;
    } catch (...) {
    }
    return false;
}

} // namespace

void run_workers(Run &run, int threads, const std::function<void(int)> &body,
                 const std::function<void()> &meanwhile) {
    Stopper &stop = run.stopper();
    if (threads == 1 && !meanwhile) {
        // On this thread: a watching thread beside a busy-polling one takes
        // a CPU from it at every wake-up whenever both sides of a run poll
        // on a 2-CPU machine, and each of those lands in the latency tail.
        // The body's own stop checks ask the host for a cancel instead (the
        // Stopper does on the test's thread).
        body(0);
        return;
    }
    std::vector<std::exception_ptr> errors(size_t(threads) + 1);
    std::mutex mu;
    std::condition_variable finished;
    int running = threads;
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            try {
                body(t);
            } catch (...) {
                errors[size_t(t)] = std::current_exception();
                stop.abort();
            }
            std::lock_guard<std::mutex> lock(mu);
            if (--running == 0) finished.notify_all();
        });
    if (meanwhile) {
        try {
            meanwhile();
        } catch (...) {
            errors[size_t(threads)] = std::current_exception();
            stop.abort();
        }
    }
    // Asleep until the workers end, looking for a cancel every 100 ms (not
    // more often: see above).
    {
        std::unique_lock<std::mutex> lock(mu);
        while (!finished.wait_for(lock, std::chrono::milliseconds(100),
                                  [&] { return running == 0; })) {
            lock.unlock();
            if (run.host().cancelled(run.ctx())) stop.abort();
            lock.lock();
        }
    }
    for (auto &t : pool)
        t.join();
    std::exception_ptr first;
    for (auto &e : errors)
        if (e && (!first || (is_echo(first) && !is_echo(e)))) first = e;
    if (first) std::rethrow_exception(first);
}

} // namespace cmdbench::verbs

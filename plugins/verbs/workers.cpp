// Worker threads of a measured step (see workers.hpp).
#include "workers.hpp"

#include <atomic>
#include <chrono>
#include <exception>
#include <thread>
#include <vector>

namespace verbs {
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
    std::vector<std::exception_ptr> errors(size_t(threads) + 1);
    std::atomic<int> running{threads};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            try {
                body(t);
            } catch (...) {
                errors[size_t(t)] = std::current_exception();
                stop.abort();
            }
            --running;
        });
    if (meanwhile) {
        try {
            meanwhile();
        } catch (...) {
            errors[size_t(threads)] = std::current_exception();
            stop.abort();
        }
    }
    while (running > 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        if (run.host().cancelled(run.ctx())) stop.abort();
    }
    for (auto &t : pool)
        t.join();
    std::exception_ptr first;
    for (auto &e : errors)
        if (e && (!first || (is_echo(first) && !is_echo(e)))) first = e;
    if (first) std::rethrow_exception(first);
}

} // namespace verbs

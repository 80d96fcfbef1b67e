// Runs one blocking call (a barrier with the peer) on its own thread while
// the caller keeps waiting for local events. A server that would otherwise
// wait for connections only learns that its client failed through the
// control channel: keeping a barrier pending on it turns the client's
// failure into an error here, instead of a wait until the run's timeout.
#pragma once
#include <atomic>
#include <exception>
#include <functional>
#include <thread>

namespace cmdbench::cmtime {

class AsyncCall {
  public:
    explicit AsyncCall(std::function<void()> call)
        : thread_([this, call = std::move(call)] {
              try {
                  call();
              } catch (...) {
                  error_ = std::current_exception();
              }
              done_.store(true, std::memory_order_release);
          }) {}
    ~AsyncCall() {
        if (thread_.joinable()) thread_.join();
    }
    AsyncCall(const AsyncCall &) = delete;
    AsyncCall &operator=(const AsyncCall &) = delete;

    // Throws what the call threw, once it has ended.
    void rethrow_if_failed() {
        if (done_.load(std::memory_order_acquire) && error_) std::rethrow_exception(error_);
    }
    // Waits for the call and throws what it threw.
    void finish() {
        if (thread_.joinable()) thread_.join();
        if (error_) std::rethrow_exception(error_);
    }

  private:
    std::exception_ptr error_;
    std::atomic<bool> done_{false};
    std::thread thread_;
};

} // namespace cmdbench::cmtime

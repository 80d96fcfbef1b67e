// A one-line progress display on a terminal (stderr); silent otherwise.
// Tests report from their own threads, so every call may come from any thread.
#pragma once
#include "cmdbench/host/run/progress_display.hpp"

#include <cstdint>
#include <mutex>
#include <string>

namespace cmdbench {

// Where a scenario is: run `run` of `runs`, repetition `repeat` of `repeats`,
// the test's own count (`done` of `total`, 0 = none) and the last row it
// completed (a size, such as "64_lat").
struct ProgressState {
    size_t run = 0, runs = 0;
    std::string name;
    unsigned repeat = 1, repeats = 1;
    uint64_t done = 0, total = 0;
    std::string last_row;
};

// "[2/5] latency rep 2/3: 3/8 done, last 4k_lat"; "rep" only when repeats > 1.
std::string progress_text(const ProgressState &s);

class Progress final : public ProgressDisplay {
  public:
    explicit Progress(bool quiet);
    // A run (or one repetition of it) starts.
    void start(size_t run, size_t runs, const std::string &name, unsigned repeat,
               unsigned repeats) override;
    void update(uint64_t done, uint64_t total) override;
    void row_done(const std::string &row) override;
    void clear() override;

  private:
    void draw(); // with mu_ held

    const bool enabled_;
    std::mutex mu_;
    bool shown_ = false;
    ProgressState state_;
};

} // namespace cmdbench

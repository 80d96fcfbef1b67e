// Where a run reports how far it has come. The run layer owns the interface
// so that it needs nothing from the command line: `cmdbench run` shows a
// terminal line (cli/progress.hpp), a matrix rank shows nothing.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace cmdbench {

// Tests report from their own threads, so every call may come from any thread.
class ProgressDisplay {
  public:
    virtual ~ProgressDisplay() = default;
    // A run (or one repetition of it) starts.
    virtual void start(size_t run, size_t runs, const std::string &name, unsigned repeat,
                       unsigned repeats) = 0;
    virtual void update(uint64_t done, uint64_t total) = 0; // cmdbench_host.progress
    virtual void row_done(const std::string &row) = 0;      // cmdbench_host.row_end
    virtual void clear() = 0;
};

// Shows nothing.
class NoProgressDisplay final : public ProgressDisplay {
  public:
    void start(size_t, size_t, const std::string &, unsigned, unsigned) override {}
    void update(uint64_t, uint64_t) override {}
    void row_done(const std::string &) override {}
    void clear() override {}
};

} // namespace cmdbench

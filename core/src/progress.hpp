// A one-line progress display on a terminal (stderr); silent otherwise.
#pragma once
#include <cstdint>
#include <string>

namespace cmdbench {

class Progress {
  public:
    explicit Progress(bool quiet);
    void update(size_t run, size_t runs, const std::string &name, uint64_t done, uint64_t total);
    void clear();

  private:
    bool enabled_;
    bool shown_ = false;
};

} // namespace cmdbench

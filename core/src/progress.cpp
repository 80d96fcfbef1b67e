#include "progress.hpp"

#include <cstdio>
#include <unistd.h>

namespace cmdbench {

Progress::Progress(bool quiet) : enabled_(!quiet && isatty(STDERR_FILENO)) {}

void Progress::update(size_t run, size_t runs, const std::string &name, uint64_t done,
                      uint64_t total) {
    if (!enabled_) return;
    if (total)
        std::fprintf(stderr, "\r\033[K[%zu/%zu] %s: %llu/%llu", run, runs, name.c_str(),
                     (unsigned long long)done, (unsigned long long)total);
    else
        std::fprintf(stderr, "\r\033[K[%zu/%zu] %s", run, runs, name.c_str());
    std::fflush(stderr);
    shown_ = true;
}

void Progress::clear() {
    if (!enabled_ || !shown_) return;
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    shown_ = false;
}

} // namespace cmdbench

#include "progress.hpp"

#include <cstdio>
#include <sys/ioctl.h>
#include <unistd.h>

namespace cmdbench {
namespace {

// A line longer than the terminal wraps, and "\r" then only clears its
// last part: cut it to the width.
size_t terminal_width() {
    winsize ws{};
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1) return ws.ws_col - 1;
    return 0; // unknown: do not cut
}

} // namespace

std::string progress_text(const ProgressState &s) {
    std::string text = "[" + std::to_string(s.run) + "/" + std::to_string(s.runs) + "] " + s.name;
    if (s.repeats > 1) text += " rep " + std::to_string(s.repeat) + "/" + std::to_string(s.repeats);
    std::string how_far;
    if (s.total) how_far = std::to_string(s.done) + "/" + std::to_string(s.total) + " done";
    if (!s.last_row.empty()) how_far += (how_far.empty() ? "last " : ", last ") + s.last_row;
    if (!how_far.empty()) text += ": " + how_far;
    return text;
}

Progress::Progress(bool quiet) : enabled_(!quiet && isatty(STDERR_FILENO)) {}

void Progress::start(size_t run, size_t runs, const std::string &name, unsigned repeat,
                     unsigned repeats) {
    std::lock_guard<std::mutex> lock(mu_);
    state_ = ProgressState{run, runs, name, repeat, repeats, 0, 0, {}};
    draw();
}

void Progress::update(uint64_t done, uint64_t total) {
    std::lock_guard<std::mutex> lock(mu_);
    state_.done = done;
    state_.total = total;
    draw();
}

void Progress::row_done(const std::string &row) {
    std::lock_guard<std::mutex> lock(mu_);
    state_.last_row = row;
    draw();
}

void Progress::draw() {
    if (!enabled_) return;
    std::string line = progress_text(state_);
    if (size_t width = terminal_width(); width && line.size() > width) line.resize(width);
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
    shown_ = true;
}

void Progress::clear() {
    std::lock_guard<std::mutex> lock(mu_);
    if (!enabled_ || !shown_) return;
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    shown_ = false;
}

} // namespace cmdbench

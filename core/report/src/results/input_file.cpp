#include "cmdbench/report/input_file.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cmdbench {
namespace {

std::string too_large(size_t limit) {
    return "larger than the " + std::to_string(limit) + "-byte limit";
}

std::string cannot_read(int err) {
    return std::string("cannot read: ") + std::strerror(err);
}

// Waits until fd has something to read (data, or its writer gone) for at
// most kInputIdleSeconds. "" when it has, otherwise why not.
std::string wait_readable(int fd) {
    using Clock = std::chrono::steady_clock;
    const auto end = Clock::now() + std::chrono::seconds(kInputIdleSeconds);
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now());
        pollfd p{fd, POLLIN, 0};
        const int n = left.count() > 0 ? ::poll(&p, 1, int(left.count())) : 0;
        if (n > 0) return "";
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return cannot_read(errno);
        return "nothing to read for " + std::to_string(kInputIdleSeconds) +
               " s (a FIFO with no writer, or a stalled pipe?)";
    }
}

} // namespace

Expected<std::string> read_input_file(const std::string &path, size_t limit) {
    // O_NONBLOCK: opening a FIFO no one writes to would otherwise wait forever.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return unexpected(cannot_read(errno));
    struct stat st {};
    std::string error;
    if (fstat(fd, &st) != 0) {
        error = cannot_read(errno);
    } else if (S_ISREG(st.st_mode) && uint64_t(st.st_size) > limit) {
        error = too_large(limit); // refused unread
    }
    std::string out;
    // Anything else (a pipe, a device) is read until EOF or one byte past
    // the limit, with a bound on each wait for more.
    const bool regular = S_ISREG(st.st_mode);
    char buf[65536];
    while (error.empty()) {
        if (!regular && !(error = wait_readable(fd)).empty()) break;
        const size_t want = std::min(sizeof buf, limit + 1 - out.size());
        const ssize_t n = ::read(fd, buf, want);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n < 0) error = cannot_read(errno);
        if (n <= 0) break;
        out.append(buf, size_t(n));
        if (out.size() > limit) error = too_large(limit);
    }
    ::close(fd);
    if (!error.empty()) return unexpected(std::move(error));
    return out;
}

} // namespace cmdbench

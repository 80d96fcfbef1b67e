#include "input_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
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

} // namespace

std::string read_input_file(const std::string &path, size_t limit, std::string &text) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return cannot_read(errno);
    struct stat st {};
    std::string error;
    if (fstat(fd, &st) != 0) {
        error = cannot_read(errno);
    } else if (S_ISREG(st.st_mode) && uint64_t(st.st_size) > limit) {
        error = too_large(limit); // refused unread
    }
    std::string out;
    // Anything else (a pipe, a device) is read until EOF or one byte past the limit.
    char buf[65536];
    while (error.empty()) {
        const size_t want = std::min(sizeof buf, limit + 1 - out.size());
        const ssize_t n = ::read(fd, buf, want);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) error = cannot_read(errno);
        if (n <= 0) break;
        out.append(buf, size_t(n));
        if (out.size() > limit) error = too_large(limit);
    }
    ::close(fd);
    if (error.empty()) text = std::move(out);
    return error;
}

} // namespace cmdbench

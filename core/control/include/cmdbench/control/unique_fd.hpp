// A file descriptor with one owner: closed when the owner goes, so an early
// return or a throw cannot leak it, and moved, never copied.
#pragma once
#include <utility>

namespace cmdbench {

class UniqueFd {
  public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : fd_(fd) {}
    ~UniqueFd() { reset(); }
    UniqueFd(UniqueFd &&other) noexcept : fd_(other.release()) {}
    UniqueFd &operator=(UniqueFd &&other) noexcept {
        if (this != &other) reset(other.release());
        return *this;
    }
    UniqueFd(const UniqueFd &) = delete;
    UniqueFd &operator=(const UniqueFd &) = delete;

    int get() const { return fd_; }
    explicit operator bool() const { return fd_ >= 0; }
    // Gives the descriptor up without closing it.
    int release() { return std::exchange(fd_, -1); }
    // Closes the descriptor held (if any) and holds fd instead.
    void reset(int fd = -1);
    // Closes now and says how: 0, or the errno of close(2), which some file
    // systems use to report a write that failed late.
    int close();

  private:
    int fd_ = -1;
};

// Both ends of a pipe2(2) with these flags (O_CLOEXEC, O_NONBLOCK).
// Throws std::runtime_error naming the errno.
struct Pipe {
    UniqueFd read, write;
};
Pipe make_pipe(int flags);

} // namespace cmdbench

#include "cmdbench/host/plugins/wake_event.hpp"

#include <atomic>
#include <cstdint>
#include <sys/eventfd.h>
#include <unistd.h>

namespace cmdbench {
namespace {

// Makes eventfd `fd` readable; one system call, async-signal-safe.
void signal_eventfd(int fd) noexcept {
    const uint64_t one = 1;
    if (fd >= 0) {
        ssize_t ignored = write(fd, &one, sizeof one); // full only after 2^64 - 1 sets
        (void)ignored;
    }
}

std::atomic<int> g_interrupt_fd{-1};

} // namespace

WakeEvent::WakeEvent() : fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

WakeEvent::~WakeEvent() {
    if (fd_ >= 0) close(fd_);
}

void WakeEvent::set() const noexcept {
    signal_eventfd(fd_);
}

void WakeEvent::drain() const noexcept {
    uint64_t count;
    if (fd_ >= 0) {
        ssize_t ignored = read(fd_, &count, sizeof count); // EAGAIN when not set
        (void)ignored;
    }
}

int poll_events(std::vector<pollfd> &fds, int timeout_ms) {
    constexpr int kBlindMs = 100;
    for (pollfd &p : fds) {
        p.revents = 0;
        if (p.fd < 0 && (timeout_ms < 0 || timeout_ms > kBlindMs)) timeout_ms = kBlindMs;
    }
    return poll(fds.data(), nfds_t(fds.size()), timeout_ms);
}

int interrupt_event_fd() {
    // Never closed: a signal at exit must not write to a reused number.
    static const int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    g_interrupt_fd.store(fd);
    return fd;
}

void set_interrupt_event() noexcept {
    signal_eventfd(g_interrupt_fd.load());
}

} // namespace cmdbench

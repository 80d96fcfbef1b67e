// Events a waiting thread can poll() beside what it waits for, so that no
// wait needs to wake up now and then to look at a flag. A wake-up every
// 100 ms on an otherwise idle CPU is not free: under emulation it costs the
// timed loop on the other CPU measurably (bench/README.md, "the host's
// periodic wake-ups").
#pragma once
#include <poll.h>
#include <vector>

namespace cmdbench {

// An eventfd. set() makes it readable until drain(); both are
// async-signal-safe (one system call). fd() is -1 when the process had no
// descriptor left for it: poll() ignores such an entry, and the wait then
// ends only by its other events or its timeout.
class WakeEvent {
  public:
    WakeEvent();
    ~WakeEvent();
    WakeEvent(const WakeEvent &) = delete;
    WakeEvent &operator=(const WakeEvent &) = delete;

    void set() const noexcept;
    void drain() const noexcept;
    int fd() const { return fd_; }

  private:
    int fd_;
};

// poll() on `fds` for up to timeout_ms (-1: no limit); its result. An
// entry whose event could not be made (fd -1) cannot wake the wait, so
// then it looks again every 100 ms, as every wait did before these events.
int poll_events(std::vector<pollfd> &fds, int timeout_ms);

// The process's interrupt event: set (never drained) by the Ctrl-C, SIGTERM
// and SIGHUP handler, so that every wait of every run notices at once.
// Call interrupt_event_fd() once before installing that handler: it makes
// the descriptor, which the handler only writes to.
int interrupt_event_fd();
void set_interrupt_event() noexcept;

} // namespace cmdbench

// A child process this one started and owns. The owner going away stops
// and reaps it, so no child is left running or unreaped by an early return
// or a throw; waits are bounded and wake when the child ends.
#pragma once
#include "cmdbench/control/unique_fd.hpp"

#include <optional>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace cmdbench {

struct ChildSpec {
    std::vector<std::string> argv; // argv[0] is the executable's path
    std::vector<std::string> env;  // the child's whole environment
    // {fd in the child, fd in this process}: each placed with dup2 (which
    // clears close-on-exec on the copy); every other descriptor this process
    // opened close-on-exec stays out of the child.
    std::vector<std::pair<int, int>> fds;
    // Runs in the child after the descriptors are placed, before exec. Only
    // async-signal-safe calls: the parent may have threads.
    void (*in_child)() = nullptr;
};

class ChildProcess {
  public:
    ChildProcess() = default;
    // Forks and execs spec; throws std::runtime_error when fork fails. An
    // exec that fails ends the child with status 127.
    explicit ChildProcess(const ChildSpec &spec);
    ~ChildProcess() { stop(0); }
    ChildProcess(ChildProcess &&other) noexcept;
    ChildProcess &operator=(ChildProcess &&other) noexcept;
    ChildProcess(const ChildProcess &) = delete;
    ChildProcess &operator=(const ChildProcess &) = delete;

    pid_t pid() const { return pid_; }
    bool running() const { return pid_ > 0; }
    // Waits up to wait_ms for the child to end: its wait status (waitpid's)
    // when it did, nothing while it runs on.
    std::optional<int> wait_for(int wait_ms);
    void signal(int sig) const;
    // Waits up to timeout_ms for it to end by itself, then kills and reaps.
    void stop(int timeout_ms);

  private:
    pid_t pid_ = -1;
    UniqueFd pidfd_; // readable once the child ends; absent on old kernels
};

} // namespace cmdbench

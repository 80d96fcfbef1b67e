// The child processes of `cmdbench serve`, one per client session: who
// they serve and since when (for "busy" answers), reaped without blocking.
#pragma once
#include <chrono>
#include <map>
#include <string>
#include <sys/types.h>

namespace cmdbench {

class SessionChildren {
  public:
    void add(pid_t pid, const std::string &peer);
    size_t size() const { return children_.size(); }
    // Collects every child that has ended; logs those a signal killed.
    void reap();
    // "server busy with 10.0.0.2:51000 since 2026-12-01 03:10:52 UTC (1 of 1 clients)".
    std::string busy_text(int max_clients) const;
    // SIGTERM to every child, SIGKILL to those still there after grace_ms.
    void stop_all(int grace_ms);

  private:
    struct Child {
        std::string peer;
        std::chrono::system_clock::time_point since;
    };
    void ended(pid_t pid, int status);
    std::map<pid_t, Child> children_;
};

} // namespace cmdbench

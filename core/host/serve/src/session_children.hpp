// The child processes of `cmdbench serve`, one per connection: who they
// talk to, since when and their entry in the session table, reaped without
// blocking; each entry is freed when its child has ended, however it ended.
#pragma once
#include "session_table.hpp"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace cmdbench {

class SessionChildren {
  public:
    explicit SessionChildren(SessionTable &table) : table_(table) {}
    void add(pid_t pid, const std::string &peer, size_t entry);
    size_t size() const { return children_.size(); }
    // Collects every child that has ended; logs those a signal killed
    // (unless the parent ended them itself).
    void reap();
    // The oldest child still in its handshake whose client has sent nothing
    // (silent) or whose Hello has come (not silent), if it is at least
    // `min_age` old. Nothing when there is none.
    std::optional<pid_t> oldest_handshake(bool silent, std::chrono::milliseconds min_age) const;
    // Those in their handshake for longer than `limit`.
    std::vector<pid_t> handshakes_older_than(std::chrono::milliseconds limit) const;
    // Ends a child still in its handshake (SIGKILL); false when its client
    // has authenticated meanwhile.
    bool drop_handshake(pid_t pid);
    std::string peer(pid_t pid) const;
    // SIGTERM to every child, SIGKILL to those still there after grace_ms.
    void stop_all(int grace_ms);

  private:
    struct Child {
        std::string peer;
        size_t entry;
        std::chrono::steady_clock::time_point since;
        bool dropped = false;
    };
    void ended(pid_t pid, int status);
    SessionTable &table_;
    std::map<pid_t, Child> children_;
};

} // namespace cmdbench

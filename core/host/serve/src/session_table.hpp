// The connections of `cmdbench serve` and what each one is: still in its
// handshake, or a session. It lives in memory the listening process shares
// with its session children (one anonymous shared mapping, made before the
// first fork), because the child is the one that authenticates its client:
// - the parent adds an entry (in handshake) before it forks a child for a
//   connection, and frees it when it reaps the child, however that ended;
// - the child turns its own entry into a session once its client has proved
//   it holds the token, if fewer than max_sessions are taken.
// So a stranger without the token never holds one of the --max-clients
// sessions, and only an authenticated client learns who they are busy with.
#pragma once
#include "cmdbench/base/expected.hpp"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

namespace cmdbench {

class SessionTable {
  public:
    // capacity: entries in all (sessions, handshakes and those between).
    SessionTable(int max_sessions, size_t capacity);
    ~SessionTable();
    SessionTable(const SessionTable &) = delete;
    SessionTable &operator=(const SessionTable &) = delete;

    // Parent: an entry in handshake for a new connection, heard when its
    // client has sent something already; nothing when full.
    std::optional<size_t> add(const std::string &peer, bool heard);
    // Parent: the child of `entry` has ended.
    void remove(size_t entry);
    // Parent: takes `entry` out of its handshake so it can be ended; false
    // when its client has authenticated meanwhile (it is no longer a stranger).
    bool evict(size_t entry);
    bool in_handshake(size_t entry) const;
    // In its handshake and its client has sent nothing yet.
    bool silent(size_t entry) const;
    size_t handshakes() const;
    size_t silent_handshakes() const;
    size_t sessions() const;

    // Child: its client's Hello has come (the entry stays in its handshake).
    void heard(size_t entry);
    // Child: makes `entry` a session, waiting up to wait_ms for one to end.
    // Fine when it is one; otherwise the busy text for the client.
    Status claim(size_t entry, std::chrono::milliseconds wait);
    // Child: the session of `entry` is over; another client may have it.
    void leave(size_t entry);

    // Whether a line about a refused connection may be logged now: at most
    // five a second over all processes. `suppressed` counts those not logged
    // since the last one that was.
    bool refusal_log_due(size_t &suppressed);

  private:
    struct Shared;
    size_t count(int state) const;
    std::string busy_text() const;
    int max_sessions_;
    size_t capacity_;
    Shared *shared_ = nullptr;
    size_t bytes_ = 0;
};

} // namespace cmdbench

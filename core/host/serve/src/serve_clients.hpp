// `cmdbench serve` for many clients: the parent only accepts, and hands each
// connection to a child process of its own before reading a byte from it,
// so a silent or slow client can never hold up anyone else. The child
// authenticates its client and only then takes one of max_clients sessions
// (session_table.hpp): a client that cannot prove it holds the token never
// holds a session. Handshakes have a pool of their own, and connections that
// have sent nothing yet may hold only part of it: a client that talks (its
// Hello has come) takes the place of the oldest silent connection, so a
// flood of silent connections -- from any address, the client's own
// included -- cannot lock a real client out. docs/security.md tells the rules.
#pragma once
#include "cmdbench/control/control.hpp"
#include "cmdbench/control/control_auth.hpp"

#include <atomic>
#include <functional>
#include <string>

namespace cmdbench {

struct ClientLimits {
    int max_clients = 1; // sessions at once
    bool quiet = false;  // no line per refused client
};

// What a session child is given besides its connection.
struct SessionGate {
    // Takes a session once the client is authenticated: fine, or the busy text.
    control::Admission admit;
    // Marks the connection as one that talks: its Hello has come.
    std::function<void()> heard;
    // Logs a line about a refused or failed handshake, at most five a second
    // over all sessions (the rest are counted in the next line).
    std::function<void(const std::string &)> log_refusal;
};

// Runs one session in the child process; returns the child's exit code.
using SessionBody = std::function<int(control::Channel &, const SessionGate &)>;

// Sets up (the table the sessions share), then calls `ready` (which says
// where it listens; false: return 1), serves until interrupted, and stops
// the sessions (SIGTERM, then SIGKILL after a grace period). Returns 130;
// 2, said on stderr, when it cannot set up (no memory for the table under
// --max-memory, say) rather than letting the exception end the process.
int serve_clients(control::Listener &listener, const ClientLimits &limits,
                  const SessionBody &session, const std::atomic<bool> &interrupted,
                  const std::function<bool()> &ready);

} // namespace cmdbench

namespace cmdbench {

// "cmdbench serve: <line>" on stderr; line must already be printable.
void serve_log(const std::string &line);

} // namespace cmdbench

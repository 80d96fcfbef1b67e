// `cmdbench serve` for many clients: the parent only accepts, and hands each
// connection to a child process of its own before reading a byte from it,
// so a silent or slow client can never hold up anyone else. When
// max_clients sessions are running, a new connection is told at once who
// the server is busy with, and closed.
#pragma once
#include "control.hpp"

#include <atomic>
#include <functional>
#include <string>

namespace cmdbench {

struct ClientLimits {
    int max_clients = 1; // sessions at once
    bool quiet = false;  // no line per refused client
};

// Runs one session in the child process; returns the child's exit code.
using SessionBody = std::function<int(control::Channel &)>;

// Serves until interrupted; then stops the sessions (SIGTERM, then SIGKILL
// after a grace period). Returns 130.
int serve_clients(control::Listener &listener, const ClientLimits &limits,
                  const SessionBody &session, const std::atomic<bool> &interrupted);

} // namespace cmdbench

namespace cmdbench {

// "cmdbench serve: <line>" on stderr; line must already be printable.
void serve_log(const std::string &line);

} // namespace cmdbench

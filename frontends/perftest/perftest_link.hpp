// The TCP connection between the two sides (perftest's -p port, 18515):
// the server waits for one client, the client connects, they shake hands
// (cmdbench's control handshake, no token: a perftest server takes any
// client, and this one only runs the test its own command line names), the
// client sends its settings and the server checks they agree. Afterwards it
// carries the verbs test's barriers and exchanges (ControlPeer).
#pragma once
#include "cmdbench/control/control.hpp"
#include "cmdbench/host/params/params.hpp"
#include "perftest_options.hpp"

#include <atomic>
#include <memory>
#include <optional>
#include <string>

namespace cmdbench::perftest_frontend {

struct Link {
    std::unique_ptr<control::Channel> channel;
    std::unique_ptr<control::Channel> beat; // heartbeats only (perftest_liveness.hpp)
    std::string data_host;                  // where the data plane meets (the server's address)
    std::string label;                      // "the server (ADDR)", "the client (ADDR)"
};

// Thrown when the sides cannot run together: their settings differ, or the
// peer is another tool. The text names the option.
struct Mismatch : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Server: waits for a client on -p (forever, as perftest, unless --timeout
// was given; Ctrl-C ends the wait: nullopt), then checks its settings
// against `ours`. Throws control::ControlError, Mismatch (after telling the
// client).
std::optional<Link> accept_client(const Options &o, const WireParams &ours,
                                  const std::atomic<bool> &interrupted);

// Client: connects to the server, sends `ours`, and waits for its verdict.
// Throws control::ControlError, Mismatch (the server's words).
Link connect_server(const Options &o, const WireParams &ours);

} // namespace cmdbench::perftest_frontend

// The handshake that opens every `cmdbench run` -> `cmdbench serve` session:
// Hello, HelloAck, Auth, AuthAck. When the server holds a token it sends a
// fresh random nonce and the client answers with HMAC-SHA256(token, ...)
// over both nonces and the protocol version; the server proves the token
// back the same way. The token itself never crosses the wire. See
// docs/security.md.
#pragma once
#include "cmdbench/base/expected.hpp"
#include "cmdbench/control/control.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cmdbench::control {

constexpr size_t kNonceSize = 32;

// The server turned a client away (no token, wrong token, or the client
// gave up); the text is the server's log line and names the peer.
struct AuthRefused : ControlError {
    using ControlError::ControlError;
};

// A server's answer to a client it has authenticated (right after its Hello
// when the server holds no token): fine to serve it, or the text it is
// turned away with ("server busy with ..."). Only then may a client learn
// who else is served, or take a session.
using Admission = std::function<Status()>;

// The server turned an authenticated client away (Admission said why).
struct NotAdmitted : ControlError {
    using ControlError::ControlError;
};

// What the server side of a handshake tells its caller, and asks it.
struct HandshakeHooks {
    // The client's Hello has come and is well formed (with a nonce when the
    // server holds a token): a client that talks, not a silent connection.
    std::function<void()> heard;
    // Whether an authenticated client gets a session (none: it does).
    Admission admit;
};

// Server side: reads the client's Hello, answers, and when `token` is not
// empty checks the client's proof (telling the client why it is refused);
// all within kServerHandshakeMs. Returns the client's software string.
// Throws AuthRefused, NotAdmitted or ControlError; their texts show at most
// kPeerTextShown bytes of what the client sent.
std::string accept_handshake(Channel &ch, const std::string &token, const std::string &software,
                             const HandshakeHooks &hooks = {});

// Client side: `label` names the server in messages ("server host:7470").
// An empty token means the client expects a server without one. Throws
// ControlError with a message for the user.
// Returns the server's software string (its features: has_feature).
std::string open_handshake(Channel &ch, const std::string &token, const std::string &software,
                           const std::string &label);

// n bytes from the kernel's random generator (getrandom); throws ControlError.
std::vector<uint8_t> random_bytes(size_t n);
// A fresh token: 64 hex digits (256 random bits).
std::string random_token();

} // namespace cmdbench::control

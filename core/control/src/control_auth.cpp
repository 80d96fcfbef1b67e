#include "cmdbench/control/control_auth.hpp"

#include "cmdbench/control/hmac.hpp"
#include "cmdbench/control/printable_text.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <sys/random.h>

namespace cmdbench::control {
namespace {

// What each side MACs: a label naming the protocol version and the role (so
// a proof cannot be replayed to the other side or to another version), then
// the verifier's nonce, then the prover's. Nonces have a fixed size, so the
// concatenation is unambiguous.
std::vector<uint8_t> proof(const std::string &token, const char *role,
                           const std::vector<uint8_t> &verifier_nonce,
                           const std::vector<uint8_t> &prover_nonce) {
    const std::string label =
        "cmdbench control v" + std::to_string(kProtocolVersion) + " " + role + " proof";
    std::vector<uint8_t> message(label.begin(), label.end());
    message.push_back(0);
    message.insert(message.end(), verifier_nonce.begin(), verifier_nonce.end());
    message.insert(message.end(), prover_nonce.begin(), prover_nonce.end());
    const Sha256Digest mac = hmac_sha256(token, message);
    return std::vector<uint8_t>(mac.begin(), mac.end());
}

bool proof_matches(const std::vector<uint8_t> &got, const std::vector<uint8_t> &want) {
    return constant_time_equal(got.data(), got.size(), want.data(), want.size());
}

// Tells the peer why before giving up; a peer already gone changes nothing.
void send_reason(Channel &ch, const std::string &why) {
    try {
        ch.send(make_string(MsgType::Error, why), kHandshakeTimeoutMs);
    } catch (const ControlError &) {
    }
}

const char *kHowToGiveToken = "--token-file FILE or CMDBENCH_TOKEN";

} // namespace

std::vector<uint8_t> random_bytes(size_t n) {
    std::vector<uint8_t> out(n);
    size_t got = 0;
    while (got < n) {
        const ssize_t r = getrandom(out.data() + got, n - got, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0)
            throw ControlError(std::string("cannot get random bytes: ") + std::strerror(errno));
        got += size_t(r);
    }
    return out;
}

std::string random_token() {
    static const char *digits = "0123456789abcdef";
    std::string token;
    for (uint8_t b : random_bytes(32)) {
        token += digits[b >> 4];
        token += digits[b & 15];
    }
    return token;
}

std::string accept_handshake(Channel &ch, const std::string &token, const std::string &software,
                             const HandshakeHooks &hooks) {
    const std::string peer = ch.peer_name();
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(kServerHandshakeMs);
    const auto left_ms = [&](int at_most) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        return int(std::clamp<int64_t>(left.count(), 1, at_most));
    };
    Message m = ch.recv(left_ms(kHelloTimeoutMs));
    if (m.type != MsgType::Hello) throw ControlError("expected a hello from " + peer);
    const Hello hello = parse_hello(m);
    const std::string who = "client " + peer + " (" + printable_excerpt(hello.software) + ")";
    if (!token.empty() && hello.nonce.size() != kNonceSize) {
        send_reason(ch, std::string("authentication required: this server needs a token (give "
                                    "the client ") +
                            kHowToGiveToken + ")");
        throw AuthRefused("refused " + who + ": it has no token");
    }
    if (hooks.heard) hooks.heard();
    // Without a token, a hello is all the authentication there is.
    const auto admitted = [&] {
        if (!hooks.admit) return;
        const Status admitted = hooks.admit();
        if (admitted) return;
        send_reason(ch, admitted.error());
        throw NotAdmitted("turned away " + who + ": " + admitted.error());
    };
    if (token.empty()) admitted();
    const std::vector<uint8_t> our_nonce =
        token.empty() ? std::vector<uint8_t>{} : random_bytes(kNonceSize);
    ch.send(make_hello(MsgType::HelloAck, {kProtocolVersion, software, our_nonce}),
            kHandshakeTimeoutMs);
    m = ch.recv(left_ms(kHandshakeTimeoutMs));
    if (m.type == MsgType::Error)
        throw AuthRefused(who + " gave up: " + printable_excerpt(parse_string(m)));
    if (m.type != MsgType::Auth)
        throw ControlError("expected the authentication of " + who + ", got message type " +
                           std::to_string(unsigned(m.type)));
    const std::vector<uint8_t> theirs = parse_proof(m);
    if (token.empty()) {
        ch.send(make_proof(MsgType::AuthAck, {}), kHandshakeTimeoutMs);
        return hello.software;
    }
    if (!proof_matches(theirs, proof(token, "client", our_nonce, hello.nonce))) {
        send_reason(ch, "authentication failed: the client's token is not this server's");
        throw AuthRefused("refused " + who + ": wrong token");
    }
    admitted();
    ch.send(make_proof(MsgType::AuthAck, proof(token, "server", hello.nonce, our_nonce)),
            kHandshakeTimeoutMs);
    return hello.software;
}

namespace {

// The server's next handshake message. A server flooded with connections
// ends unfinished handshakes to make room; the client says so rather than
// only "connection reset".
Message handshake_answer(Channel &ch, const std::string &label) {
    try {
        return ch.recv(kHandshakeTimeoutMs);
    } catch (const ControlError &e) {
        throw ControlError(label + " ended the handshake (" + e.what() +
                           "); a server with more connections than it takes drops unfinished "
                           "handshakes: try again, and see the server's log");
    }
}

} // namespace

std::string open_handshake(Channel &ch, const std::string &token, const std::string &software,
                           const std::string &label) {
    const std::vector<uint8_t> our_nonce =
        token.empty() ? std::vector<uint8_t>{} : random_bytes(kNonceSize);
    ch.send(make_hello(MsgType::Hello, {kProtocolVersion, software, our_nonce}),
            kHandshakeTimeoutMs);
    Message m = handshake_answer(ch, label);
    if (m.type == MsgType::Error)
        throw ControlError(label + " refused us: " + printable_excerpt(parse_string(m), 1024));
    if (m.type != MsgType::HelloAck) throw ControlError(label + " did not answer the handshake");
    const Hello ack = parse_hello(m);
    std::vector<uint8_t> ours;
    if (token.empty() && !ack.nonce.empty()) {
        send_reason(ch, "the client has no token");
        throw ControlError(label + " requires a token: give " + kHowToGiveToken);
    }
    if (!token.empty()) {
        if (ack.nonce.size() != kNonceSize) {
            send_reason(ch, "the client has a token but this server asks for none");
            throw ControlError(label +
                               " does not ask for a token, but this client has one: refusing "
                               "an unauthenticated server (start it with --token-file, or "
                               "run without --token-file/--token/CMDBENCH_TOKEN)");
        }
        ours = proof(token, "client", ack.nonce, our_nonce);
    }
    ch.send(make_proof(MsgType::Auth, ours), kHandshakeTimeoutMs);
    m = handshake_answer(ch, label);
    if (m.type == MsgType::Error)
        throw ControlError(label + " refused us: " + printable_excerpt(parse_string(m), 1024));
    if (m.type != MsgType::AuthAck)
        throw ControlError(label + " did not answer the authentication");
    const std::vector<uint8_t> theirs = parse_proof(m);
    if (!token.empty() && !proof_matches(theirs, proof(token, "server", our_nonce, ack.nonce)))
        throw ControlError(label + " could not prove it holds our token: not the server meant, "
                                   "or it has another token");
    return ack.software;
}

} // namespace cmdbench::control

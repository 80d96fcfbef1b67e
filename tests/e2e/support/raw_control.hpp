// A deliberately dumb control-channel peer for end-to-end tests: raw
// sockets and hand-built frames, so tests can send what a real cmdbench
// never would (NaN timeouts, escape sequences) and go silent at will.
#pragma once
#include <cstdint>
#include <string>

namespace raw {

// Message types of the control protocol (core/control/include/cmdbench/control/control.hpp),
// restated so the tests do not depend on the code they test.
enum Type : uint16_t {
    kHello = 1,
    kHelloAck = 2,
    kRunRequest = 3,
    kRunAccept = 4,
    kRunEnd = 7,
    kError = 8,
    kBye = 9,
    kAuth = 10,   // the client's proof of a token: empty without one
    kAuthAck = 11 // the server's
};

// The largest payload a peer accepts (1 MiB).
constexpr uint32_t kMaxPayload = 1u << 20;

// Connects to host:port within timeout_ms; -1 on failure.
int connect_to(const std::string &host, int port, int timeout_ms);
// Listens on 127.0.0.1 on an ephemeral port; returns the fd, sets port.
int listen_loopback(int &port);

// Payload pieces, big-endian as on the wire.
std::string u32(uint32_t v);
std::string f64(double v);
std::string str(const std::string &s);
std::string hello_payload(const std::string &software);
std::string run_request_payload(const std::string &name, const std::string &test,
                                const std::string &transport, double timeout_s);

bool send_frame(int fd, uint16_t type, const std::string &payload);
// Reads one frame within timeout_ms; false on timeout, close or a bad header.
bool recv_frame(int fd, int timeout_ms, uint16_t &type, std::string &payload);
// The string at the start of a payload (Error), or after the status (RunEnd).
std::string payload_string(const std::string &payload, size_t offset);

} // namespace raw

// Looking at a control channel without reading from it (see control.hpp).
#include "cmdbench/control/control.hpp"

#include <cerrno>
#include <poll.h>
#include <sys/socket.h>

namespace cmdbench::control {
namespace {

// poll() once for `events`, retrying EINTR: the revents, 0 on a timeout.
short poll_once(int fd, short events, int timeout_ms) {
    for (;;) {
        pollfd p{fd, events, 0};
        const int n = poll(&p, 1, timeout_ms);
        if (n > 0) return p.revents;
        if (n == 0 || errno != EINTR) return 0;
    }
}

// MSG_PEEK of up to `len` bytes: how many are there, 0 when none (or the
// peer closed, or an error: the reader finds out which).
size_t peek_bytes(int fd, uint8_t *buf, size_t len) {
    ssize_t n;
    do {
        n = ::recv(fd, buf, len, MSG_PEEK | MSG_DONTWAIT);
    } while (n < 0 && errno == EINTR);
    return n > 0 ? size_t(n) : 0;
}

} // namespace

bool Channel::wait_readable(int timeout_ms) const {
    return poll_once(fd_, POLLIN, timeout_ms) != 0;
}

bool Channel::hung_up() const {
    return (poll_once(fd_, POLLRDHUP, 0) & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

std::optional<Message> Channel::peek() const {
    uint8_t header[kHeaderSize];
    if (peek_bytes(fd_, header, sizeof header) < sizeof header) return std::nullopt;
    Message m;
    uint32_t len = 0;
    try {
        len = decode_header(header, m.type);
    } catch (const ControlError &) {
        return std::nullopt; // not a message: the reader will say so
    }
    std::vector<uint8_t> frame(kHeaderSize + len);
    if (peek_bytes(fd_, frame.data(), frame.size()) < frame.size()) return std::nullopt;
    m.payload.assign(frame.begin() + kHeaderSize, frame.end());
    return m;
}

} // namespace cmdbench::control

#include "busy_refusals.hpp"

#include <cerrno>
#include <sys/socket.h>

namespace cmdbench {
namespace {

// How long a refused client has to read the message and close.
constexpr auto kLinger = std::chrono::seconds(2);
// Refused connections kept open at once; past it the oldest is closed now.
constexpr size_t kMaxPending = 256;
// The Error fits any fresh socket's send buffer: this only guards the odd case.
constexpr int kSendTimeoutMs = 100;

// Reads and discards what the peer sent; false once it has closed or failed.
bool drain(int fd) {
    char buf[4096];
    for (;;) {
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n > 0) continue;
        if (n < 0 && errno == EINTR) continue;
        return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
    }
}

} // namespace

void BusyRefusals::refuse(control::Channel &&channel, const std::string &why) {
    auto ch = std::make_unique<control::Channel>(std::move(channel));
    try {
        ch->send(control::make_string(control::MsgType::Error, why), kSendTimeoutMs);
    } catch (const control::ControlError &) {
        return; // gone already
    }
    shutdown(ch->fd(), SHUT_WR);
    if (pending_.size() >= kMaxPending) pending_.erase(pending_.begin());
    pending_.push_back({std::move(ch), std::chrono::steady_clock::now() + kLinger});
}

void BusyRefusals::service() {
    const auto now = std::chrono::steady_clock::now();
    for (auto it = pending_.begin(); it != pending_.end();) {
        if (now >= it->close_by || !drain(it->channel->fd()))
            it = pending_.erase(it);
        else
            ++it;
    }
}

} // namespace cmdbench

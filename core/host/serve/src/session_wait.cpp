#include "session_wait.hpp"

#include <algorithm>
#include <chrono>
#include <poll.h>

namespace cmdbench {

std::optional<control::Message> next_request(control::Channel &ch, int idle_ms,
                                             const std::atomic<bool> &interrupted) {
    using Clock = std::chrono::steady_clock;
    // Checked this often for `interrupted`.
    constexpr int kSliceMs = 200;
    const auto end = Clock::now() + std::chrono::milliseconds(idle_ms);
    while (!interrupted) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count();
        if (left <= 0)
            throw control::ControlError("control channel: " + ch.peer_name() + " was silent for " +
                                        std::to_string(idle_ms / 1000) +
                                        " s (--idle-timeout): session closed");
        pollfd p{ch.fd(), POLLIN, 0};
        if (poll(&p, 1, int(std::min<int64_t>(left, kSliceMs))) > 0)
            // The message has begun (or the peer closed): read it whole, within
            // what is left of the idle time and at least the handshake bound.
            return ch.recv(int(std::max<int64_t>(left, control::kHandshakeTimeoutMs)));
    }
    return std::nullopt;
}

} // namespace cmdbench

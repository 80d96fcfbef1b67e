// The wait of a `cmdbench serve` session between runs: as long as the idle
// timeout allows, but over at once when the server is told to stop (a
// signal does not end a poll() that is simply retried).
#pragma once
#include "cmdbench/control/control.hpp"

#include <atomic>
#include <optional>

namespace cmdbench {

// The client's next message; nullopt once `interrupted` is set. Throws
// control::ControlError when the client stays silent for idle_ms.
std::optional<control::Message> next_request(control::Channel &ch, int idle_ms,
                                             const std::atomic<bool> &interrupted);

} // namespace cmdbench

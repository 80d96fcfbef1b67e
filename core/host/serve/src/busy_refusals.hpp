// Connections `cmdbench serve` turns away while it is busy: each gets an
// Error message in place of the HelloAck, then is closed gracefully (our
// side shut, its Hello drained) so the client reads the message rather than
// a connection reset. Never blocks: a client gets a short while to go.
#pragma once
#include "cmdbench/control/control.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace cmdbench {

class BusyRefusals {
  public:
    void refuse(control::Channel &&channel, const std::string &why);
    // Drains what refused clients sent; closes those that left or whose time is up.
    void service();
    // Closes every connection at once (a session child must not hold them).
    void close_all() { pending_.clear(); }

  private:
    struct Pending {
        std::unique_ptr<control::Channel> channel;
        std::chrono::steady_clock::time_point close_by;
    };
    std::vector<Pending> pending_;
};

} // namespace cmdbench

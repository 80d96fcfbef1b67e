// Mesh::farewell (see mesh.hpp): the order in which the ranks of a failed
// job leave, so that every rank's error is printed before the launcher ends
// the job (Open MPI does so as soon as one rank exits with an error).
#include "mesh.hpp"
#include "mesh_detail.hpp"

namespace cmdbench {
namespace {

using mesh_detail::now_ms;

// Reads and drops what `ch` still brings until its peer says Bye or leaves,
// or the deadline passes.
void drain_until_gone(control::Channel &ch, int64_t deadline) {
    for (int64_t left; (left = deadline - now_ms()) > 0;) {
        try {
            if (ch.recv(int(left)).type == control::MsgType::Bye) return;
        } catch (const control::ControlError &) {
            return; // gone, or the time is up
        }
    }
}

} // namespace

void Mesh::farewell(int ms) {
    const int64_t deadline = now_ms() + ms;
    if (controller()) {
        for (auto &ch : links_)
            if (ch) drain_until_gone(*ch, deadline);
        return;
    }
    if (links_.empty() || !links_[0]) return;
    try {
        send_to(0, control::Message{control::MsgType::Bye, {}});
    } catch (const control::ControlError &) {
        return; // the controller is gone already
    }
    drain_until_gone(*links_[0], deadline);
}

} // namespace cmdbench

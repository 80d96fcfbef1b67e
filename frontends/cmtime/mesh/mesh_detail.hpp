// What the mesh's sources (mesh*.cpp) share besides the Mesh class: the
// control channel's names and the clock every wait of the mesh is bounded on.
#pragma once
#include "cmdbench/control/control.hpp"

#include <chrono>
#include <cstdint>
#include <string>

namespace cmdbench::mesh_detail {

using control::Channel;
using control::ControlError;
using control::Message;
using control::MsgType;

// Steady milliseconds, for deadlines.
inline int64_t now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

// What waits at the head of a readable link, read without consuming it
// (Mesh::check_peers): "" = nothing to act on (ordinary data, a frame not
// complete yet, or the middle of a frame another thread is reading); else
// why the run must end: a complete Error frame's text, or the link's end
// (`ended` set).
std::string peek_link(int fd, bool &ended);

} // namespace cmdbench::mesh_detail

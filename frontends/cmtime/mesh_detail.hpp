// What the mesh's sources (mesh*.cpp) share besides the Mesh class: the
// control channel's names and the clock every wait of the mesh is bounded on.
#pragma once
#include "cmdbench/control/control.hpp"

#include <chrono>
#include <cstdint>

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

} // namespace cmdbench::mesh_detail

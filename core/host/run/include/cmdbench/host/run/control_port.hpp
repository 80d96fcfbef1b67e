// The control channel's port when a server address names none: what
// `cmdbench serve` listens on and what `run --server host` connects to.
#pragma once
#include <cstdint>

namespace cmdbench {

constexpr uint16_t kDefaultControlPort = 7470;

} // namespace cmdbench

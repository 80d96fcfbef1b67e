// The server's check of a RunRequest a client sent: every field within the
// limits the client's own scenario loader applies (run_limits.hpp), before
// any of it sets a deadline or reaches a plugin.
#pragma once
#include "cmdbench/base/expected.hpp"
#include "cmdbench/control/control.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace cmdbench {

// Fine when the request may run; else what is wrong with it, naming the
// field and its allowed range.
Status check_run_request(const control::RunRequest &request);

// A poll() timeout in ms from a computed wait that may be negative or larger
// than any run may last: clamped to 0 .. (kMaxTimeout + grace), never overflowing int.
int clamp_wait_ms(int64_t ms);

} // namespace cmdbench

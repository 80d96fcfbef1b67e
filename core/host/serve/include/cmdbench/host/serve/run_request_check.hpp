// The server's check of a RunRequest a client sent: every field within the
// limits the client's own scenario loader applies (run_limits.hpp), before
// any of it sets a deadline or reaches a plugin.
#pragma once
#include "cmdbench/control/control.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace cmdbench {

// What is wrong with the request, naming the field and its allowed range;
// nullopt when it may run.
std::optional<std::string> run_request_problem(const control::RunRequest &request);

// A poll() timeout in ms from a computed wait that may be negative or larger
// than any run may last: clamped to 0 .. (kMaxTimeout + grace), never overflowing int.
int clamp_wait_ms(int64_t ms);

} // namespace cmdbench

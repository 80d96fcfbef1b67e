// Limits on what a run may ask for, shared by the scenario loader (the
// client's check) and `cmdbench serve` (the server's check of what a client
// sent), so both sides accept exactly the same values.
#pragma once
#include <cstddef>

namespace cmdbench {

constexpr double kDefaultTimeout = 60; // seconds
constexpr double kMaxTimeout = 86400;  // seconds
// A run timeout is allowed when > 0 and <= kMaxTimeout (so never NaN or inf).
constexpr bool timeout_allowed(double seconds) {
    return seconds > 0 && seconds <= kMaxTimeout;
}

// Names a RunRequest carries; plugin names are short identifiers, run names
// are whatever a scenario calls a run.
constexpr size_t kMaxRunNameBytes = 1024;
constexpr size_t kMaxPluginNameBytes = 128;

} // namespace cmdbench

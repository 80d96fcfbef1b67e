// The command line asked for something that cannot be: an unknown option, a
// value out of its range, a missing argument. Every command and front end
// throws this one type, and turns it into its usage exit code (2 for
// cmdbench; the tool's own for a drop-in front end).
#pragma once
#include <stdexcept>

namespace cmdbench {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

} // namespace cmdbench

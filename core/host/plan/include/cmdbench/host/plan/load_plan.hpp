// What a run with a `background` becomes: the run measured alone, then the
// same run beside its background traffic (execute/under_load.hpp). Each is
// a run of its own in the results; the loaded one's variant is the run's
// with " under load", so the comparison sets the two side by side.
#pragma once
#include "cmdbench/host/scenario/scenario.hpp"

namespace cmdbench {

// The run alone: no background.
RunSpec alone(const RunSpec &spec);
// The run under load: its background kept, named "... under load".
RunSpec under_load(const RunSpec &spec);

// What the comparison appends to a loaded run's variant.
constexpr const char *kUnderLoadSuffix = " under load";

} // namespace cmdbench

// What a run with `rails` becomes: the run on each rail alone, then the run
// on every rail at once (rails_together.hpp). Each is a run of its own in the
// results, so the comparison sets the rails side by side (variant "@label").
#pragma once
#include "cmdbench/host/scenario/scenario.hpp"

#include <vector>

namespace cmdbench {

// The run on rail `i` alone: its parameters and server applied, no rails.
RunSpec rail_run(const RunSpec &spec, size_t i);
// The runs a spec stands for, in order: itself when it has no rails; else
// each rail's run, then the all-rails run (the spec with its rails kept,
// named "... @all rails").
std::vector<RunSpec> expand_rails(const RunSpec &spec);

} // namespace cmdbench

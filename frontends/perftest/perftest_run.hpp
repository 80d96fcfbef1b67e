// One side of a perftest-compatible run: plugins loaded, the options mapped
// onto the verbs test, the two sides met over TCP, the test run as one
// RoleRun, perftest's lines printed and cmdbench's results written.
#pragma once
#include "perftest_options.hpp"

namespace cmdbench::perftest_frontend {

// Exit status: 0 done; 1 the run failed (or could not start: the peer, the
// device, different settings); 2 an option this build cannot take; 130
// interrupted.
int run_side(const Options &o);

} // namespace cmdbench::perftest_frontend

// Plugin-side glue for the step tests: report a StepReport as result rows
// (cmtime's columns plus a per-step histogram) and swap reports with the
// peer over the host's exchange service.
#pragma once
#include "step_table.hpp"

#include <cmdbench/plugin.h>
#include <stdexcept>
#include <string>

namespace cmtime {

// A failed run, carried to the test's ABI edge.
struct RunError : std::runtime_error {
    RunError(int status_, const std::string &what) : std::runtime_error(what), status(status_) {}
    int status;
};

// One row per step, named `prefix` + label, with metrics avg/conn, total(us),
// us/conn, sum(us), max(us), min(us) and the histogram "conn" of the
// per-connection durations (p50/p99 ...).
void report_rows(const cmdbench_run_env &env, const StepReport &report, const std::string &prefix);

// Sends `ours` to the peer and returns the peer's bytes; large blobs go in
// chunks that fit the control channel. Throws RunError.
std::vector<uint8_t> swap_blob(const cmdbench_run_env &env, const std::vector<uint8_t> &ours,
                               const char *what);

// Throws RunError (TIMEOUT / CANCELLED) once the run must stop.
void check_stop(const cmdbench_run_env &env, const char *what);

// Runs body(env) and converts what it throws into a status and set_error.
int run_guarded(const cmdbench_run_env *env, void (*body)(const cmdbench_run_env &));

} // namespace cmtime

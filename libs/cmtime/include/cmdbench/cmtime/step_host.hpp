// Plugin-side glue for the step tests: report a StepReport as result rows
// (cmtime's columns plus a per-step histogram) and ship the server's report
// to the client over the host's exchange and hist_send/hist_recv services.
#pragma once
#include "cmdbench/cmtime/step_table.hpp"

#include <cmdbench/plugin-support/run_error.hpp>
#include <cmdbench/plugin-support/run_guard.hpp>
#include <cmdbench/plugin.h>
#include <string>

namespace cmdbench::cmtime {

// A failed run, carried to the test's ABI edge (run_guarded). When a host
// service failed and already gave the run's error its reason (hist_recv:
// "bad histogram: ..."), it is thrown as reported and the guard keeps that one.
using cmdbench::support::RunError;

// One row per step, named `prefix` + label, with metrics avg/conn, total(us),
// us/conn, sum(us), max(us), min(us) and the histogram "conn" of the
// per-connection durations (p50/p99 ...).
void report_rows(const cmdbench_run_env &env, const StepReport &report, const std::string &prefix);

// Server: ships `report` to the client, which reports it (report_peer_rows):
// the figures in one message, then each step's per-connection durations as
// a histogram (host service hist_send), so what crosses the control channel
// does not grow with the connection count. Throws RunError.
void send_report(const cmdbench_run_env &env, const StepReport &report, const char *what);

// Client: receives the server's send_report and reports it as report_rows
// would have with the server's samples (same rows, metrics and
// percentiles). Throws RunError.
void report_peer_rows(const cmdbench_run_env &env, const std::string &prefix, const char *what);

// Sends `ours` to the peer and returns the peer's bytes; large blobs go in
// chunks that fit the control channel. Throws RunError.
std::vector<uint8_t> swap_blob(const cmdbench_run_env &env, const std::vector<uint8_t> &ours,
                               const char *what);

// check_stop(env, what): throws RunError (TIMEOUT / CANCELLED) once the run
// must stop. run_guarded(env, body): runs body(env) and converts what it
// throws into a status and set_error.
using cmdbench::support::check_stop;
using cmdbench::support::run_guarded;

} // namespace cmdbench::cmtime

// Plugin-side glue for the step tests: report a StepReport as result rows
// (cmtime's columns plus a per-step histogram) and ship the server's report
// to the client over the host's exchange and hist_send/hist_recv services.
#pragma once
#include "cmdbench/cmtime/step_table.hpp"

#include <cmdbench/plugin.h>
#include <stdexcept>
#include <string>

namespace cmtime {

// A failed run, carried to the test's ABI edge.
struct RunError : std::runtime_error {
    RunError(int status_, const std::string &what) : std::runtime_error(what), status(status_) {}
    int status;
    // A host service failed and already gave the run's error its reason
    // (hist_recv: "bad histogram: ..."); run_guarded keeps that one.
    bool host_reason = false;
};

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

// Throws RunError (TIMEOUT / CANCELLED) once the run must stop.
void check_stop(const cmdbench_run_env &env, const char *what);

// Runs body(env) and converts what it throws into a status and set_error.
int run_guarded(const cmdbench_run_env *env, void (*body)(const cmdbench_run_env &));

} // namespace cmtime

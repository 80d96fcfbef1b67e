// Runs one role of a test in a worker thread under a watchdog, so a test that
// ignores its deadline or a Ctrl-C cannot hold the process (and its results)
// hostage. The watchdog also cancels the test as soon as its peer is lost
// (the control channel closed, the peer ended the run with a failure).
#pragma once
#include "cmdbench/host/plugins/host_services.hpp"
#include "cmdbench/report/result.hpp"

#include <cmdbench/plugin.h>
#include <memory>
#include <optional>
#include <string>

namespace cmdbench {

struct Execution {
    RunStatus status = RunStatus::Ok;
    std::string error;
    // The test did not return within its grace period: its thread is still
    // running and owns the ctx, so the process must report and exit.
    bool abandoned = false;
    // The watchdog stopped the test because its peer went away or ended the
    // run (PeerLink::lost): why. Then `error` says so, not the test.
    std::string peer_lost;
};

// Seconds a test may overrun its deadline (or an interrupt, or the loss of
// its peer) before it is abandoned.
constexpr double kGraceSeconds = 5.0;

// Asks the transport whether it can run here; an Execution (skipped or
// failed) when it cannot.
std::optional<Execution> probe_transport(const cmdbench_transport *transport,
                                         const std::shared_ptr<cmdbench_ctx> &ctx);

// Runs test->run with the given role. ctx must be a shared_ptr: an abandoned
// worker keeps it alive.
Execution execute_test(const cmdbench_test *test, const cmdbench_transport *transport,
                       const std::shared_ptr<cmdbench_ctx> &ctx, uint32_t role,
                       const std::string &peer_host);

} // namespace cmdbench

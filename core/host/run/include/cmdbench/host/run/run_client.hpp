// The client side of one run against one server, over the control channel:
// what the executor (execute/execute_job.hpp) does for each job, whether the
// single-pair runner or a matrix rank planned it.
#pragma once
#include "cmdbench/control/control.hpp"
#include "cmdbench/host/plugins/registry.hpp"
#include "cmdbench/host/run/local_node.hpp"
#include "cmdbench/host/run/progress_display.hpp"
#include "cmdbench/host/run/server_process.hpp"
#include "cmdbench/host/scenario/scenario.hpp"
#include "cmdbench/report/result.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <string>

namespace cmdbench {

// A control connection to one server, opened on first use.
struct ClientSession {
    std::string server;                   // "host[:port]"; empty = start one locally
    std::string token;                    // proves us to a named server; "" = none
    std::unique_ptr<ServerProcess> local; // set when we started the server
    std::unique_ptr<control::Channel> channel;
    std::string label;
    std::string host;          // where the data plane connects
    std::string software;      // the server's software string (its features)
    std::string broken;        // why the session can no longer be used
    bool local_server = false; // we start (and restart) the server
    bool reconnected = false;  // a remote server gets one reconnect
};

// What the runs of one process share.
struct ClientState {
    const Registry &registry;
    const std::atomic<bool> &interrupted;
    ProgressDisplay &progress;
    std::string local_node = kLoopbackNode; // for sessions with a local server
    bool abandoned = false; // a test thread could not be stopped: the process must end
    // Called once, with the session open, just before the run request goes
    // out: clients started together wait there for each other.
    std::function<void()> before_request = nullptr;
};

// The fields every result of a run has, whether it ran or not.
RunResult result_of(const RunSpec &spec, unsigned repeat);

// The run's parameters as its server gets them. `remote`: for a server on
// another machine, less the run's client-only parameters
// (RunSpec::client_only_params), which it then takes by default.
WireParams sent_params(const RunSpec &spec, bool remote);

// One repetition of one run, client side, against the session's server.
RunResult run_client(ClientState &st, ClientSession &session, const RunSpec &spec, unsigned repeat);

// Says goodbye (when the session is healthy) and stops a local server.
void close_session(ClientSession &s);

} // namespace cmdbench

#include "cmdbench/host/serve/server.hpp"

#include "cmdbench/control/control.hpp"
#include "cmdbench/control/control_auth.hpp"
#include "cmdbench/control/printable_text.hpp"
#include "cmdbench/host/machine/counter_reader.hpp"
#include "cmdbench/host/machine/cpu_usage.hpp"
#include "cmdbench/host/run/control_peer.hpp"
#include "cmdbench/host/run/crash_context.hpp"
#include "cmdbench/host/run/exit_status.hpp"
#include "cmdbench/host/run/role_run.hpp"
#include "cmdbench/host/run/run_path.hpp"
#include "cmdbench/host/run/status_code.hpp"
#include "cmdbench/host/scenario/placement.hpp"
#include "cmdbench/host/serve/run_request_check.hpp"
#include "cmdbench/host/serve/serve_label.hpp"
#include "cmdbench/report/report.hpp"
#include "serve_clients.hpp"
#include "session_wait.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <unistd.h>

namespace cmdbench {
namespace {

using control::Channel;
using control::ControlError;
using control::Message;
using control::MsgType;

void log_line(const std::string &s) {
    serve_log(printable_text(s));
}

// What the client reads of a RunEnd beyond the fields every peer has.
struct ClientReads {
    bool path = false;
    bool counters = false;
};

// A failure already logged (or deliberately not): the session just ends.
struct Quiet {};

// What the server resolved of a RunRequest before running it.
struct ServerRun {
    control::RunRequest req;
    const cmdbench_test *test = nullptr;
    const cmdbench_transport *transport = nullptr;
    ParamMap params;
    // The data plane meets where the client reached us: over the same
    // address family and interface as the control connection.
    std::string data_host;
};

// The request's test, transport and parameters, checked against this
// server's plugins and limits: fine, or why the run is refused.
Status resolve_request(ServerRun &run, const Registry &registry, const ServeOptions &opt,
                       const Channel &ch) {
    control::RunRequest &req = run.req;
    if (const Status ok = check_run_request(req); !ok) return ok;
    req.run_name = printable_text(req.run_name); // only ever shown
    run.test = registry.find_test(req.test);
    if (!run.test) return unexpected("the server has no test '" + req.test + "'");
    if (!req.transport.empty()) {
        run.transport = registry.find_transport(req.transport);
        if (!run.transport)
            return unexpected("the server has no transport '" + req.transport + "'");
    }
    auto params = params_from_text(run.test, run.transport, req.params);
    if (!params) return unexpected("the server refused the run: " + params.error());
    run.params = std::move(*params);
    if (const Status within = opt.limits.check(run.params, req.timeout_s); !within) {
        log_line("refused run '" + req.run_name + "' of " + ch.peer_name() + ": " + within.error());
        return unexpected("the server refused the run: " + within.error());
    }
    return {};
}

// Places this side before any hook of the plugin runs (the client checked
// what it could; only we know what this machine has): fine, or why not.
Status place_server(RoleRun &role, const ServerRun &run, const Registry &registry) {
    if (run.req.placement.empty()) return {};
    auto wanted = placement_from_wire(run.req.placement);
    if (!wanted) return unexpected("the server refused the run: " + wanted.error());
    const SidePlacement &p = *wanted;
    if (const Status ok = check_placement(p, local_topology(), "the server's machine"); !ok)
        return unexpected("the server refused the run: " + ok.error());
    auto node =
        placement_numa_node(p, registry, run.test, run.transport, run.params, run.data_host);
    if (!node) return unexpected("on the server: " + node.error());
    if (const Status placed = role.place(p, *node); !placed)
        return unexpected("on the server: " + placed.error());
    return {};
}

// The test's thread still runs and owns the data socket: tell the client,
// then leave; nothing else can safely run in this process.
[[noreturn]] void abandon(Channel &ch, const ServerRun &run, const Execution &ex) {
    log_line("run '" + run.req.run_name + "': " + ex.error + "; exiting");
    try {
        ch.send(control::make_run_end({status_code(ex.status), ex.error}),
                control::kHandshakeTimeoutMs);
    } catch (const ControlError &) {
    }
    std::fflush(stdout);
    _exit(1);
}

// This side's table of the run, for the server's own log.
void print_server_side(const ServerRun &run, const Execution &ex, const RoleRun &role,
                       const CpuTime &cpu, const SidePath &path, const SideCounters &counters) {
    RunResult r;
    r.name = run.req.run_name + " (server side)";
    r.test = run.req.test;
    r.transport = run.req.transport;
    r.status = ex.status;
    r.error = ex.error;
    r.rows = role.rows();
    r.settings = role.settings();
    r.cpu_server = cpu;
    r.path.server = path;
    r.counters.server = counters;
    write_table_run(std::cout, r);
    std::cout.flush();
}

// One RunRequest: accept or refuse it, run the server role, close the run.
// Returns false when the session cannot go on. `reads`: what the client
// reads of our RunEnd (control::kFeaturePath, control::kFeatureCounters).
bool serve_run(const Registry &registry, const ServeOptions &opt, Channel &ch,
               const Message &request, const ClientReads &reads,
               const std::atomic<bool> &interrupted) {
    ServerRun run;
    run.req = control::parse_run_request(request);
    auto refuse = [&](RunStatus s, const std::string &why) {
        ch.send(control::make_run_end({status_code(s), why}), control::kHandshakeTimeoutMs);
        return true;
    };
    if (const Status resolved = resolve_request(run, registry, opt, ch); !resolved)
        return refuse(RunStatus::Failed, resolved.error());
    run.data_host = ch.local_host();
    if (run.data_host.empty()) run.data_host = opt.bind;
    RoleSetup setup;
    setup.test = run.test;
    setup.transport = run.transport;
    setup.inputs.params = run.params;
    setup.inputs.interrupted = &interrupted;
    setup.inputs.log_prefix = serve_log_prefix();
    setup.registry = &registry;
    setup.run_label = run_label(run.req.run_name, 1, 1);
    RoleRun role(std::move(setup));
    if (const Status placed = place_server(role, run, registry); !placed)
        return refuse(RunStatus::Failed, placed.error());
    if (auto skipped = role.probe())
        return refuse(skipped->status, "on the server: " + skipped->error);

    role.start_clock(run.req.timeout_s);
    ControlPeer peer(ch, "the client (" + ch.peer_name() + ")");
    // Before the client hears it may start, so that the read delays nothing.
    const CounterWatch counters(
        run_counter_sources(registry, run.test, run.transport, run.params, run.data_host));
    ch.send(Message{MsgType::RunAccept, {}}, control::kHandshakeTimeoutMs);

    Execution ex = role.run(CMDBENCH_ROLE_SERVER, run.data_host, &peer);
    const SideCounters deltas = counters.deltas();
    const CpuTime cpu = role.cpu();
    if (ex.abandoned) abandon(ch, run, ex);
    const int wait = clamp_wait_ms(remaining_ms(role.ctx()) + int64_t(kGraceSeconds * 1000));
    // After the run, as on the client: nothing of it may slow the test.
    SidePath path = run_side_path(registry, run.test, run.transport, run.params, run.data_host);
    path.affinity = role.affinity();
    control::RunEnd ours{status_code(ex.status), ex.error, cpu_seconds_to_us(cpu.user_s),
                         cpu_seconds_to_us(cpu.sys_s)};
    const auto text = [](const nlohmann::ordered_json &j) {
        return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    };
    if (reads.path) ours.path = text(side_path_json(path));
    if (reads.path && reads.counters) ours.counters = wire_counters_text(deltas, counter_machine());
    const control::RunEnd theirs = peer.finish(ours, wait);
    if (!opt.quiet) print_server_side(run, ex, role, cpu, path, deltas);
    // A run the client was told to stop (Ctrl-C, the end of a background
    // flow) ends here too, often in an exchange the client left: that is
    // the stop, which the client reports, not a failure to log.
    const bool client_stopped = status_from_code(theirs.status) == RunStatus::Interrupted;
    if (ex.status != RunStatus::Ok && !client_stopped && serve_logs_run_failures())
        log_line("run '" + run.req.run_name + "': " + ex.error);
    return true;
}

// The handshake of a session: its client's software string. `hooks.admit`
// decides whether an authenticated client gets a session (none: it does).
std::string greet(const ServeOptions &opt, Channel &ch, const control::HandshakeHooks &hooks = {}) {
    const std::string software = control::accept_handshake(
        ch, opt.token,
        std::string("cmdbench ") + CMDBENCH_VERSION + " " + control::kFeatureAffinity, hooks);
    if (!opt.quiet) // a version string, not a megabyte of text in the log
        log_line("client " + ch.peer_name() + " (" + printable_excerpt(software) + ") connected");
    return software;
}

// The runs of a session whose handshake is done, until Bye or idle.
void serve_requests(const Registry &registry, const ServeOptions &opt, Channel &ch,
                    const std::string &client_software, const std::atomic<bool> &interrupted) {
    const ClientReads reads{control::has_feature(client_software, control::kFeaturePath),
                            control::has_feature(client_software, control::kFeatureCounters)};
    while (!interrupted) {
        std::optional<Message> next = next_request(ch, opt.idle_timeout_s * 1000, interrupted);
        if (!next || next->type == MsgType::Bye) return;
        const Message &req = *next;
        if (req.type != MsgType::RunRequest)
            throw ControlError("unexpected message type " + std::to_string(unsigned(req.type)) +
                               " from " + ch.peer_name());
        if (!serve_run(registry, opt, ch, req, reads, interrupted)) return;
    }
}

void serve_session(const Registry &registry, const ServeOptions &opt, Channel &ch,
                   const SessionGate &gate, const std::atomic<bool> &interrupted) {
    std::string software;
    try {
        software = greet(opt, ch, {gate.heard, gate.admit});
    } catch (const std::exception &e) {
        // Refused strangers and failed handshakes: as many as anyone can
        // connect, so their lines are rate-limited.
        gate.log_refusal(printable_text(e.what()));
        throw Quiet{};
    }
    serve_requests(registry, opt, ch, software, interrupted);
}

// --once (the local server of `cmdbench run`): the first client that gets
// through the handshake is served, in this process. A stranger that fails
// it (no or a wrong token, garbage, silence) is logged and does not use up
// the one session, so it cannot make the real client's run fail.
int serve_once(const Registry &registry, const ServeOptions &opt, control::Listener &listener,
               const std::atomic<bool> &interrupted) {
    const uint64_t give_up = monotonic_ns() + 30 * uint64_t(1000000000);
    while (!interrupted) {
        const int64_t left_ms = int64_t(give_up - std::min(give_up, monotonic_ns())) / 1000000;
        std::optional<Channel> ch;
        try {
            ch.emplace(listener.accept(int(std::max<int64_t>(left_ms, 1))));
        } catch (const ControlError &e) {
            log_line(std::string("no client came: ") + e.what());
            return 1;
        }
        std::string software;
        try {
            software = greet(opt, *ch);
        } catch (const std::exception &e) {
            log_line(e.what());
            continue;
        }
        try {
            serve_requests(registry, opt, *ch, software, interrupted);
            return 0;
        } catch (const std::exception &e) {
            log_line(e.what());
            return 1;
        }
    }
    return 130;
}

// Where it listens, for the log or for the process that started it
// (--ready-fd); false when that process cannot be told.
bool announce(const ServeOptions &opt, const control::Listener &listener) {
    if (opt.ready_fd < 0) {
        log_line("listening on " + listener.addresses());
        return true;
    }
    const std::string line = std::to_string(listener.port()) + "\n";
    if (write(opt.ready_fd, line.data(), line.size()) != ssize_t(line.size())) return false;
    close(opt.ready_fd);
    return true;
}

// A whole session, for a session child: its exit code.
int session_exit_code(const Registry &registry, const ServeOptions &opt, Channel &ch,
                      const SessionGate &gate, const std::atomic<bool> &interrupted) {
    try {
        serve_session(registry, opt, ch, gate, interrupted);
        return 0;
    } catch (const Quiet &) {
        return 1;
    } catch (const std::exception &e) {
        log_line(e.what());
        return 1;
    }
}

} // namespace

int serve(const Registry &registry, const ServeOptions &opt, const std::atomic<bool> &interrupted) {
    crash_report::set_prefix("cmdbench serve: ");
    std::unique_ptr<control::Listener> listener;
    try {
        listener = std::make_unique<control::Listener>(opt.bind, opt.port);
    } catch (const ControlError &e) {
        log_line(e.what());
        return 1;
    } catch (const std::exception &e) { // out of memory under --max-memory, say
        log_line(std::string("cannot start serving: ") + e.what());
        return kExitUsage;
    }
    // Said once everything is set up: a server that says it listens serves.
    const auto ready = [&] { return announce(opt, *listener); };
    if (!opt.once) {
        // Each session in a child process of its own (serve_clients.hpp).
        return serve_clients(
            *listener, {opt.max_clients, opt.quiet},
            [&](Channel &ch, const SessionGate &gate) {
                return session_exit_code(registry, opt, ch, gate, interrupted);
            },
            interrupted, ready);
    }
    if (!ready()) return 1;
    return serve_once(registry, opt, *listener, interrupted);
}

} // namespace cmdbench

#include "serve/server.hpp"

#include "cmdbench/control/control.hpp"
#include "cmdbench/control/control_auth.hpp"
#include "cmdbench/host/control_peer.hpp"
#include "machine/cpu_usage.hpp"
#include "run/crash_context.hpp"
#include "cmdbench/host/placement.hpp"
#include "cmdbench/control/printable_text.hpp"
#include "cmdbench/report/report.hpp"
#include "cmdbench/host/role_run.hpp"
#include "cmdbench/host/run_params.hpp"
#include "run/run_path.hpp"
#include "cmdbench/host/run_request_check.hpp"
#include "serve/serve_clients.hpp"
#include "serve/session_wait.hpp"

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

// A failure already logged (or deliberately not): the session just ends.
struct Quiet {};

// One RunRequest: accept or refuse it, run the server role, close the run.
// Returns false when the session cannot go on. `send_path`: the client reads
// our data path in RunEnd (control::kFeaturePath).
bool serve_run(const Registry &registry, const ServeOptions &opt, Channel &ch,
               const Message &request, bool send_path, const std::atomic<bool> &interrupted) {
    control::RunRequest req = control::parse_run_request(request);
    auto refuse = [&](RunStatus s, const std::string &why) {
        ch.send(control::make_run_end({status_code(s), why}), control::kHandshakeTimeoutMs);
        return true;
    };
    if (auto problem = run_request_problem(req)) return refuse(RunStatus::Failed, *problem);
    req.run_name = printable_text(req.run_name); // only ever shown
    const cmdbench_test *test = registry.find_test(req.test);
    if (!test) return refuse(RunStatus::Failed, "the server has no test '" + req.test + "'");
    const cmdbench_transport *transport = nullptr;
    if (!req.transport.empty()) {
        transport = registry.find_transport(req.transport);
        if (!transport)
            return refuse(RunStatus::Failed, "the server has no transport '" + req.transport + "'");
    }
    RoleSetup setup;
    setup.test = test;
    setup.transport = transport;
    try {
        setup.params = params_from_wire(test, transport, req.params);
    } catch (const std::exception &e) {
        return refuse(RunStatus::Failed, std::string("the server refused the run: ") + e.what());
    }
    if (auto over = opt.limits.check(setup.params, req.timeout_s)) {
        log_line("refused run '" + req.run_name + "' of " + ch.peer_name() + ": " + *over);
        return refuse(RunStatus::Failed, "the server refused the run: " + *over);
    }
    // The data plane meets where the client reached us: over the same
    // address family and interface as the control connection.
    std::string data_host = ch.local_host();
    if (data_host.empty()) data_host = opt.bind;
    const std::map<std::string, ParamValue> params = setup.params;
    setup.interrupted = &interrupted;
    setup.log_prefix = "cmdbench serve: ";
    setup.registry = &registry;
    setup.run_label = run_label(req.run_name, 1, 1);
    RoleRun role(std::move(setup));
    // Placed before any hook of the plugin runs (the client checked what it
    // could; only we know what this machine has).
    if (!req.placement.empty()) {
        auto wanted = placement_from_wire(req.placement);
        if (auto *bad = std::get_if<std::string>(&wanted))
            return refuse(RunStatus::Failed, "the server refused the run: " + *bad);
        const SidePlacement &p = std::get<SidePlacement>(wanted);
        if (auto bad = placement_problem(p, local_topology(), "the server's machine"))
            return refuse(RunStatus::Failed, "the server refused the run: " + *bad);
        int node = p.numa == SidePlacement::Numa::Node ? int(p.node) : -1;
        if (p.numa == SidePlacement::Numa::Device) {
            auto found =
                device_numa_node(run_side_path(registry, test, transport, params, data_host));
            if (auto *why = std::get_if<std::string>(&found))
                return refuse(RunStatus::Failed, "on the server: " + *why);
            node = std::get<int>(found);
        }
        const std::string misplaced = role.place(p, node);
        if (!misplaced.empty()) return refuse(RunStatus::Failed, "on the server: " + misplaced);
    }
    if (auto skipped = role.probe())
        return refuse(skipped->status, "on the server: " + skipped->error);

    role.start_clock(req.timeout_s);
    ControlPeer peer(ch, "the client (" + ch.peer_name() + ")");
    ch.send(Message{MsgType::RunAccept, {}}, control::kHandshakeTimeoutMs);

    Execution ex = role.run(CMDBENCH_ROLE_SERVER, data_host, &peer);
    const CpuTime cpu = role.cpu();
    if (ex.abandoned) {
        // The test's thread still runs and owns the data socket: tell the
        // client, then leave; nothing else can safely run in this process.
        log_line("run '" + req.run_name + "': " + ex.error + "; exiting");
        try {
            ch.send(control::make_run_end({status_code(ex.status), ex.error}),
                    control::kHandshakeTimeoutMs);
        } catch (const ControlError &) {
        }
        std::fflush(stdout);
        _exit(1);
    }
    const int wait = clamp_wait_ms(remaining_ms(role.ctx()) + int64_t(kGraceSeconds * 1000));
    // After the run, as on the client: nothing of it may slow the test.
    SidePath path = run_side_path(registry, test, transport, params, data_host);
    path.affinity = role.affinity();
    control::RunEnd ours{status_code(ex.status), ex.error, cpu_seconds_to_us(cpu.user_s),
                         cpu_seconds_to_us(cpu.sys_s)};
    if (send_path)
        ours.path = side_path_json(path).dump(-1, ' ', false,
                                              nlohmann::ordered_json::error_handler_t::replace);
    control::RunEnd theirs = peer.finish(ours, wait);
    (void)theirs;
    if (!opt.quiet) {
        RunResult r;
        r.name = req.run_name + " (server side)";
        r.test = req.test;
        r.transport = req.transport;
        r.status = ex.status;
        r.error = ex.error;
        r.rows = role.rows();
        r.cpu_server = cpu;
        r.path.server = path;
        write_table_run(std::cout, r);
        std::cout.flush();
    }
    if (ex.status != RunStatus::Ok) log_line("run '" + req.run_name + "': " + ex.error);
    return true;
}

// The handshake of a session: its client's software string. `admit`
// decides whether an authenticated client gets a session (none: it does).
std::string greet(const ServeOptions &opt, Channel &ch, const control::Admission &admit = {}) {
    const std::string software = control::accept_handshake(
        ch, opt.token,
        std::string("cmdbench ") + CMDBENCH_VERSION + " " + control::kFeatureAffinity, admit);
    if (!opt.quiet) // a version string, not a megabyte of text in the log
        log_line("client " + ch.peer_name() + " (" + printable_excerpt(software) + ") connected");
    return software;
}

// The runs of a session whose handshake is done, until Bye or idle.
void serve_requests(const Registry &registry, const ServeOptions &opt, Channel &ch,
                    const std::string &client_software, const std::atomic<bool> &interrupted) {
    const bool send_path = control::has_feature(client_software, control::kFeaturePath);
    while (!interrupted) {
        std::optional<Message> next = next_request(ch, opt.idle_timeout_s * 1000, interrupted);
        if (!next || next->type == MsgType::Bye) return;
        const Message &req = *next;
        if (req.type != MsgType::RunRequest)
            throw ControlError("unexpected message type " + std::to_string(unsigned(req.type)) +
                               " from " + ch.peer_name());
        if (!serve_run(registry, opt, ch, req, send_path, interrupted)) return;
    }
}

void serve_session(const Registry &registry, const ServeOptions &opt, Channel &ch,
                   const SessionGate &gate, const std::atomic<bool> &interrupted) {
    std::string software;
    try {
        software = greet(opt, ch, gate.admit);
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
    }
    if (opt.ready_fd >= 0) {
        std::string line = std::to_string(listener->port()) + "\n";
        if (write(opt.ready_fd, line.data(), line.size()) != ssize_t(line.size())) return 1;
        close(opt.ready_fd);
    } else {
        log_line("listening on " + listener->addresses());
    }
    if (!opt.once) {
        // Each session in a child process of its own (serve_clients.hpp).
        return serve_clients(
            *listener, {opt.max_clients, opt.quiet},
            [&](Channel &ch, const SessionGate &gate) {
                return session_exit_code(registry, opt, ch, gate, interrupted);
            },
            interrupted);
    }
    return serve_once(registry, opt, *listener, interrupted);
}

} // namespace cmdbench

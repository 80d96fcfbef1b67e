#include "cmdbench/host/run/run_client.hpp"

#include "cmdbench/control/control_auth.hpp"
#include "cmdbench/control/host_port.hpp"
#include "cmdbench/control/printable_text.hpp"
#include "cmdbench/host/machine/counter_reader.hpp"
#include "cmdbench/host/machine/cpu_usage.hpp"
#include "cmdbench/host/plugins/host_services.hpp"
#include "cmdbench/host/run/control_peer.hpp"
#include "cmdbench/host/run/control_port.hpp"
#include "cmdbench/host/run/crash_context.hpp"
#include "cmdbench/host/run/role_run.hpp"
#include "cmdbench/host/run/run_path.hpp"
#include "cmdbench/host/run/status_code.hpp"
#include "cmdbench/host/run/test_executor.hpp"
#include "session_recovery.hpp"

#include <cstdio>
#include <map>
#include <netdb.h>
#include <nlohmann/json.hpp>
#include <optional>
#include <sys/socket.h>
#include <unistd.h>
#include <utility>
#include <variant>

namespace cmdbench {
namespace {

using control::ControlError;
using control::Message;
using control::MsgType;

// `local_node`: where a local server listens and the data plane meets
// (local_node.hpp). `token`: for a named server; a local one has its own.
void open_session(ClientSession &s, const Registry &registry, const std::string &local_node) {
    const std::string &server = s.server;
    uint16_t port = 0;
    if (server.empty()) {
        s.local_server = true;
        std::vector<std::string> files;
        for (const auto &p : registry.plugins())
            files.push_back(p.file);
        s.local = std::make_unique<ServerProcess>(self_executable(), files, local_node);
        s.host = local_node;
        port = s.local->port();
        s.label = "the local server";
    } else {
        // cmd_run and the scenario loader have checked it: this is a backstop.
        const Expected<HostPort> hp = parse_host_port(server, kDefaultControlPort);
        if (!hp) throw ControlError("server '" + server + "': " + hp.error());
        s.host = hp->host;
        port = hp->port;
        if (s.label.empty()) s.label = "server " + server;
    }
    s.channel = std::make_unique<control::Channel>(
        control::Channel::connect(s.host, port, control::kHandshakeTimeoutMs));
    // "+path": we read the server's data path from its RunEnd.
    s.software =
        control::open_handshake(*s.channel, s.local ? s.local->token() : s.token,
                                std::string("cmdbench ") + CMDBENCH_VERSION + " " +
                                    control::kFeaturePath + " " + control::kFeatureCounters,
                                s.label);
}

// A broken session gets a fresh start for the next run: a new local server
// (the old one crashed, hung or lost its channel), or one reconnect to a
// remote server. Throws when there is none left.
void renew_session(ClientSession &s, const std::string &next_run) {
    if (s.broken.empty()) return;
    if (!s.local_server && s.reconnected) throw ControlError(s.broken);
    s.channel.reset();
    if (s.local_server) {
        announce_restart(s.broken, next_run);
        if (s.local) s.local->stop(1000);
        s.local.reset();
    } else {
        std::fprintf(stderr, "cmdbench: reconnecting to %s for %s (%s)\n", s.label.c_str(),
                     next_run.c_str(), s.broken.c_str());
        s.reconnected = true;
    }
    s.broken.clear();
}

// Why the control channel of a session failed: the local server's death
// when that is what happened, else the channel's own error.
std::string channel_failure(ClientSession &s, const std::exception &e, const std::string &run) {
    std::string death = s.local ? local_server_death(*s.local, run, 1000) : std::string();
    return death.empty() ? std::string(e.what()) : death;
}

// Why the session's server went away under a run: its death when it was
// the local server and it died, else the loss of the channel, named.
std::string lost_during_run(ClientSession &s, const std::exception &e, const std::string &run) {
    std::string death = s.local ? local_server_death(*s.local, run, 1000) : std::string();
    if (!death.empty()) return death;
    return "lost " + s.label + " during " + run + " (" + e.what() + ")";
}

// Whether the server's error adds to the client's: not when one holds the
// other, nor after Ctrl-C, when the server's side only stopped because this
// side did (its error then quotes ours).
bool server_error_adds(const Execution &client, const std::string &theirs) {
    return !theirs.empty() && client.status != RunStatus::Interrupted &&
           client.error.find(theirs) == std::string::npos &&
           theirs.find(client.error) == std::string::npos;
}

// The client's and the server's outcomes make the run's.
void combine(RunResult &r, const Execution &client, const control::RunEnd &server) {
    RunStatus theirs = status_from_code(server.status);
    r.status = client.status;
    r.error = client.error;
    if (client.status == RunStatus::Ok && theirs != RunStatus::Ok) {
        r.status = theirs;
        r.error = "server: " + server.error;
    } else if (client.status != RunStatus::Ok && theirs != RunStatus::Ok &&
               server_error_adds(client, server.error)) {
        r.error += " (server: " + server.error + ")";
    }
}

// The run lost its server before the server's outcome came: the channel's
// failure (or the server's death) first, then what this side saw, unless
// this side only stopped because the server was gone.
void lost_server(RunResult &r, const Execution &client, const std::string &why) {
    r.status = client.status == RunStatus::Ok ? RunStatus::Failed : client.status;
    r.error = why;
    if (!client.error.empty() && client.peer_lost.empty() &&
        why.find(client.error) == std::string::npos)
        r.error += " (client: " + client.error + ")";
}

// The server cannot place its side: the run fails, the session is fine.
struct PlacementRefused {
    std::string why;
};

CpuTime cpu_from_wire(const control::RunEnd &e) {
    return {cpu_us_to_seconds(e.cpu_user_us), cpu_us_to_seconds(e.cpu_sys_us)};
}

// The server's data path from its RunEnd; unset when it sent none (an older
// server) or something unreadable: that side is then unknown, not an error.
std::optional<SidePath> path_from_wire(const control::RunEnd &e) {
    if (e.path.empty()) return std::nullopt;
    try {
        const auto j = nlohmann::ordered_json::parse(e.path);
        if (j.is_object()) return side_path_from_json(j);
    } catch (const nlohmann::json::exception &) {
    }
    return std::nullopt;
}

// The server's counters from its RunEnd, and whether they are ours too;
// none when it sent none (an older server) or something unreadable.
void counters_from_wire(RunCounters &c, const control::RunEnd &e) {
    if (e.counters.empty()) return;
    const WireCounters w = wire_counters_from_text(e.counters);
    c.server = w.sources;
    c.same_machine = c.server && !w.machine.empty() && w.machine == counter_machine();
}

// The address this machine would use toward `host` (a UDP socket's
// connect sends nothing), "" when there is none.
std::string source_address_toward(const std::string &host) {
    addrinfo hints{};
    hints.ai_socktype = SOCK_DGRAM;
    addrinfo *res = nullptr;
    if (getaddrinfo(host.c_str(), "9", &hints, &res) != 0 || !res) return {};
    std::string out;
    const int fd = socket(res->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_storage local{};
    socklen_t len = sizeof local;
    char name[NI_MAXHOST] = {};
    if (fd >= 0 && connect(fd, res->ai_addr, res->ai_addrlen) == 0 &&
        getsockname(fd, reinterpret_cast<sockaddr *>(&local), &len) == 0 &&
        getnameinfo(reinterpret_cast<sockaddr *>(&local), len, name, sizeof name, nullptr, 0,
                    NI_NUMERICHOST) == 0)
        out = name;
    if (fd >= 0) close(fd);
    freeaddrinfo(res);
    return out;
}

// What the steps of one repetition share.
struct ClientRun {
    ClientState &st;
    ClientSession &session;
    const RunSpec &spec;
    const cmdbench_test *test;
    const cmdbench_transport *transport;
    std::map<std::string, ParamValue> params; // test and transport parameters
    std::string label;                        // run_label: "name", "name (2/3)"
};

// Our address toward the server, for a data path read before the session
// is open.
std::string client_address(const ClientRun &c) {
    if (c.session.channel) return c.session.channel->local_host();
    if (c.session.server.empty()) return c.st.local_node;
    const Expected<HostPort> hp = parse_host_port(c.session.server, kDefaultControlPort);
    if (!hp) return {};
    return source_address_toward(hp->host);
}

// Places the client side of a run before any hook of the plugin runs:
// fine, or why it could not. `numa = "device"` needs this side's data path,
// which needs our address toward the server.
Status place_client(RoleRun &role, const ClientRun &c) {
    const SidePlacement &p = c.spec.placement.client;
    const std::string address =
        p.numa == SidePlacement::Numa::Device ? client_address(c) : std::string();
    auto node = placement_numa_node(p, c.st.registry, c.test, c.transport, c.params, address);
    if (!node) return unexpected(node.error());
    return role.place(p, *node);
}

RoleSetup client_setup(const ClientRun &c) {
    RoleSetup setup;
    setup.test = c.test;
    setup.transport = c.transport;
    setup.inputs.params = c.params;
    setup.inputs.interrupted = &c.st.interrupted;
    setup.inputs.log_prefix = "cmdbench: ";
    ProgressDisplay &progress = c.st.progress;
    setup.inputs.on_progress = [&progress](uint64_t done, uint64_t total) {
        progress.update(done, total);
    };
    setup.inputs.on_row = [&progress](const Row &row) { progress.row_done(row.name); };
    setup.registry = &c.st.registry;
    setup.run_label = c.label;
    return setup;
}

// Sends the run request, opening the session first when it has no channel:
// the server's answer, or why this side did not ask. A local server that
// ended after the previous run is started anew once, since nothing ran yet.
std::variant<Message, PlacementRefused> request_run(ClientRun &c, const control::RunRequest &req) {
    ClientSession &session = c.session;
    for (int attempt = 0;; ++attempt) {
        try {
            if (!session.channel) open_session(session, c.st.registry, c.st.local_node);
            if (auto ready = std::exchange(c.st.before_request, nullptr)) ready();
            if (!req.placement.empty() &&
                !control::has_feature(session.software, control::kFeatureAffinity))
                return PlacementRefused{session.label + " (" + printable_excerpt(session.software) +
                                        ") cannot place its side of the run: it does not read "
                                        "'cpus' or 'numa' (an older cmdbench)"};
            session.channel->send(control::make_run_request(req), control::kHandshakeTimeoutMs);
            return session.channel->recv(control::kHandshakeTimeoutMs);
        } catch (const ControlError &e) {
            std::string death = session.local && attempt == 0
                                    ? local_server_death(*session.local, "the previous run", 1000)
                                    : std::string();
            if (death.empty()) throw;
            session.broken = death;
            renew_session(session, c.label);
        }
    }
}

// The server accepted the run: the client role runs, then the two sides
// trade outcomes.
void run_accepted(RunResult &r, ClientRun &c, RoleRun &role) {
    ClientSession &session = c.session;
    ControlPeer peer(*session.channel, session.label);
    // Read before and after the run, never during it.
    const CounterWatch counters(run_counter_sources(c.st.registry, c.test, c.transport, c.params,
                                                    session.channel->local_host()));
    Execution ex = role.run(CMDBENCH_ROLE_CLIENT, session.host, &peer);
    r.counters.client = counters.deltas();
    r.path.client =
        run_side_path(c.st.registry, c.test, c.transport, c.params, session.channel->local_host());
    r.path.client->affinity = role.affinity();
    r.cpu_client = role.cpu();
    if (ex.abandoned) {
        c.st.abandoned = true;
        session.broken = ex.error;
        r.status = ex.status;
        r.error = ex.error;
        return;
    }
    // A second past the server's own grace: a server that has to abandon
    // its test says so before this side gives up.
    int wait =
        int(std::max<int64_t>(remaining_ms(role.ctx()), 0) + int64_t(kGraceSeconds * 1000) + 1000);
    try {
        control::RunEnd ours;
        ours.status = status_code(ex.status);
        ours.error = ex.error;
        control::RunEnd theirs = peer.finish(ours, wait);
        combine(r, ex, theirs);
        r.cpu_server = cpu_from_wire(theirs);
        r.path.server = path_from_wire(theirs);
        counters_from_wire(r.counters, theirs);
    } catch (const ControlError &e) {
        // No word from the server: this side's failure, not the server's
        // (the server may be gone, see why).
        session.broken = lost_during_run(session, e, c.label);
        lost_server(r, ex, session.broken);
    }
}

// Asks the session's server for the run and runs it when accepted.
void run_with_server(RunResult &r, ClientRun &c, RoleRun &role) {
    ClientSession &session = c.session;
    const RunSpec &spec = c.spec;
    try {
        renew_session(session, c.label);
        role.start_clock(spec.timeout_s);
        control::RunRequest req{spec.name,
                                spec.test,
                                spec.transport,
                                spec.timeout_s,
                                sent_params(spec, !session.server.empty()),
                                placement_wire(spec.placement.server)};
        auto answered = request_run(c, req);
        if (auto *refused = std::get_if<PlacementRefused>(&answered)) {
            r.status = RunStatus::Failed;
            r.error = refused->why;
            return;
        }
        const Message &answer = std::get<Message>(answered);
        if (answer.type == MsgType::RunEnd) {
            control::RunEnd refused = control::parse_run_end(answer);
            r.status = status_from_code(refused.status);
            r.error = printable_text(refused.error);
        } else if (answer.type != MsgType::RunAccept) {
            throw ControlError(session.label + " answered the run request with message type " +
                               std::to_string(unsigned(answer.type)));
        } else {
            run_accepted(r, c, role);
        }
    } catch (const std::exception &e) {
        session.broken = channel_failure(session, e, c.label);
        r.status = c.st.interrupted ? RunStatus::Interrupted : RunStatus::Failed;
        r.error = session.broken;
    }
}

} // namespace

WireParams sent_params(const RunSpec &spec, bool remote) {
    return params_as_text(spec.test_params, spec.transport_params,
                          remote ? spec.client_only_params : std::set<std::string>{});
}

// The fields every result of a run has, whether it ran or not.
RunResult result_of(const RunSpec &spec, unsigned repeat) {
    RunResult r;
    r.name = spec.name;
    r.test = spec.test;
    r.transport = spec.transport;
    r.params = sent_params(spec, false);
    r.group = spec.group;
    r.variant = spec.variant;
    r.compare = spec.compare;
    r.expect = spec.expect;
    r.repeat = repeat;
    r.repeats = spec.repeat;
    return r;
}

void close_session(ClientSession &s) {
    if (s.channel && s.broken.empty()) {
        try {
            s.channel->send(Message{MsgType::Bye, {}}, 1000);
        } catch (const ControlError &) {
        }
    }
    s.channel.reset();
    if (s.local) s.local->stop();
}

RunResult run_client(ClientState &st, ClientSession &session, const RunSpec &spec,
                     unsigned repeat) {
    RunResult r = result_of(spec, repeat);
    uint64_t started = monotonic_ns();
    ClientRun c{st,
                session,
                spec,
                st.registry.find_test(spec.test),
                spec.transport.empty() ? nullptr : st.registry.find_transport(spec.transport),
                spec.test_params,
                run_label(spec.name, repeat, spec.repeat)};
    c.params.insert(spec.transport_params.begin(), spec.transport_params.end());
    RoleRun role(client_setup(c));

    const Status placed = place_client(role, c);
    std::optional<Execution> skipped;
    if (placed) skipped = role.probe();
    if (!placed) {
        r.status = RunStatus::Failed;
        r.error = "client: " + placed.error();
    } else if (skipped) {
        r.status = skipped->status;
        r.error = skipped->error;
    } else {
        run_with_server(r, c, role);
    }
    r.rows = role.rows();
    r.settings = role.settings();
    // A skipped run did no work worth a CPU figure, whichever side skipped it.
    if (r.status == RunStatus::Skipped) r.cpu_client = r.cpu_server = CpuTime{};
    r.wall_seconds = double(monotonic_ns() - started) / 1e9;
    return r;
}

} // namespace cmdbench

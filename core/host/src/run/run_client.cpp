#include "run/run_client.hpp"

#include "cmdbench/control/control_auth.hpp"
#include "cmdbench/control/host_port.hpp"
#include "cmdbench/control/printable_text.hpp"
#include "cmdbench/host/control_peer.hpp"
#include "cmdbench/host/host_services.hpp"
#include "cmdbench/host/role_run.hpp"
#include "cmdbench/host/run_params.hpp"
#include "cmdbench/host/test_executor.hpp"
#include "machine/cpu_usage.hpp"
#include "run/crash_context.hpp"
#include "run/run_path.hpp"
#include "serve/server.hpp"
#include "serve/session_recovery.hpp"

#include <cstdio>
#include <map>
#include <netdb.h>
#include <nlohmann/json.hpp>
#include <optional>
#include <sys/socket.h>
#include <unistd.h>

namespace cmdbench {
namespace {

using control::Channel;
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
        HostPort hp;
        const std::string bad = parse_host_port(server, kDefaultControlPort, hp);
        if (!bad.empty()) throw ControlError("server '" + server + "': " + bad);
        s.host = hp.host;
        port = hp.port;
        if (s.label.empty()) s.label = "server " + server;
    }
    s.channel =
        std::make_unique<Channel>(Channel::connect(s.host, port, control::kHandshakeTimeoutMs));
    // "+path": we read the server's data path from its RunEnd.
    s.software = control::open_handshake(
        *s.channel, s.local ? s.local->token() : s.token,
        std::string("cmdbench ") + CMDBENCH_VERSION + " " + control::kFeaturePath, s.label);
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

// The client's and the server's outcomes make the run's.
void combine(RunResult &r, const Execution &client, const control::RunEnd &server) {
    RunStatus theirs = status_from_code(server.status);
    r.status = client.status;
    r.error = client.error;
    if (client.status == RunStatus::Ok && theirs != RunStatus::Ok) {
        r.status = theirs;
        r.error = "server: " + server.error;
    } else if (client.status != RunStatus::Ok && theirs != RunStatus::Ok && !server.error.empty() &&
               r.error.find(server.error) == std::string::npos) {
        r.error += " (server: " + server.error + ")";
    }
}

// The run lost its server before the server's outcome came: the channel's
// failure (or the server's death) first, then what this side saw.
void lost_server(RunResult &r, const Execution &client, const std::string &why) {
    r.status = client.status == RunStatus::Ok ? RunStatus::Failed : client.status;
    r.error = why;
    if (!client.error.empty() && why.find(client.error) == std::string::npos)
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

// Places the client side of a run before any hook of the plugin runs:
// "" or why it could not. `numa = "device"` needs this side's data path,
// which needs our address toward the server.
std::string place_client(RoleRun &role, const ClientState &st, const ClientSession &session,
                         const RunSpec &spec, const cmdbench_test *test,
                         const cmdbench_transport *transport,
                         const std::map<std::string, ParamValue> &params) {
    const SidePlacement &p = spec.placement.client;
    int node = p.numa == SidePlacement::Numa::Node ? int(p.node) : -1;
    if (p.numa == SidePlacement::Numa::Device) {
        std::string address;
        if (session.channel)
            address = session.channel->local_host();
        else if (session.server.empty())
            address = st.local_node;
        else {
            HostPort hp;
            if (parse_host_port(session.server, kDefaultControlPort, hp).empty())
                address = source_address_toward(hp.host);
        }
        auto found = device_numa_node(run_side_path(st.registry, test, transport, params, address));
        if (auto *why = std::get_if<std::string>(&found)) return *why;
        node = std::get<int>(found);
    }
    return role.place(p, node);
}

} // namespace

// The fields every result of a run has, whether it ran or not.
RunResult result_of(const RunSpec &spec, unsigned repeat) {
    RunResult r;
    r.name = spec.name;
    r.test = spec.test;
    r.transport = spec.transport;
    for (const auto &[k, v] : params_to_wire(spec))
        r.params.emplace_back(k, v);
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

    const cmdbench_test *test = st.registry.find_test(spec.test);
    const cmdbench_transport *transport =
        spec.transport.empty() ? nullptr : st.registry.find_transport(spec.transport);
    Progress &progress = st.progress;
    RoleSetup setup;
    setup.test = test;
    setup.transport = transport;
    setup.params = spec.test_params;
    setup.params.insert(spec.transport_params.begin(), spec.transport_params.end());
    const std::map<std::string, ParamValue> params = setup.params;
    setup.interrupted = &st.interrupted;
    setup.log_prefix = "cmdbench: ";
    setup.on_progress = [&progress](uint64_t done, uint64_t total) {
        progress.update(done, total);
    };
    setup.on_row = [&progress](const Row &row) { progress.row_done(row.name); };
    setup.registry = &st.registry;
    const std::string run = run_label(spec.name, repeat, spec.repeat);
    setup.run_label = run;
    RoleRun role(std::move(setup));

    const std::string misplaced = place_client(role, st, session, spec, test, transport, params);
    std::optional<Execution> skipped;
    if (misplaced.empty()) skipped = role.probe();
    if (!misplaced.empty()) {
        r.status = RunStatus::Failed;
        r.error = "client: " + misplaced;
    } else if (skipped) {
        r.status = skipped->status;
        r.error = skipped->error;
    } else {
        try {
            renew_session(session, run);
            role.start_clock(spec.timeout_s);
            control::RunRequest req{spec.name,
                                    spec.test,
                                    spec.transport,
                                    spec.timeout_s,
                                    params_to_wire(spec, !session.server.empty()),
                                    placement_wire(spec.placement.server)};
            Message answer;
            std::optional<std::string> refused_placement;
            for (int attempt = 0;; ++attempt) {
                try {
                    if (!session.channel) open_session(session, st.registry, st.local_node);
                    if (!req.placement.empty() &&
                        !control::has_feature(session.software, control::kFeatureAffinity))
                        throw PlacementRefused{session.label + " (" +
                                               printable_excerpt(session.software) +
                                               ") cannot place its side of the run: it does not "
                                               "read 'cpus' or 'numa' (an older cmdbench)"};
                    session.channel->send(control::make_run_request(req),
                                          control::kHandshakeTimeoutMs);
                    answer = session.channel->recv(control::kHandshakeTimeoutMs);
                    break;
                } catch (const PlacementRefused &e) {
                    refused_placement = e.why;
                    break;
                } catch (const ControlError &e) {
                    // The local server may have ended after the last run (a
                    // test it had to abandon): nothing ran yet, start anew.
                    std::string death =
                        session.local && attempt == 0
                            ? local_server_death(*session.local, "the previous run", 1000)
                            : std::string();
                    if (death.empty()) throw;
                    session.broken = death;
                    renew_session(session, run);
                }
            }
            if (refused_placement) {
                r.status = RunStatus::Failed;
                r.error = *refused_placement;
            } else if (answer.type == MsgType::RunEnd) {
                control::RunEnd refused = control::parse_run_end(answer);
                r.status = status_from_code(refused.status);
                r.error = printable_text(refused.error);
            } else if (answer.type != MsgType::RunAccept) {
                throw ControlError(session.label + " answered the run request with message type " +
                                   std::to_string(unsigned(answer.type)));
            } else {
                ControlPeer peer(*session.channel, session.label);
                Execution ex = role.run(CMDBENCH_ROLE_CLIENT, session.host, &peer);
                r.path.client = run_side_path(st.registry, test, transport, params,
                                              session.channel->local_host());
                r.path.client->affinity = role.affinity();
                r.cpu_client = role.cpu();
                if (ex.abandoned) {
                    st.abandoned = true;
                    session.broken = ex.error;
                    r.status = ex.status;
                    r.error = ex.error;
                } else {
                    // A second past the server's own grace: a server that has
                    // to abandon its test says so before this side gives up.
                    int wait = int(std::max<int64_t>(remaining_ms(role.ctx()), 0) +
                                   int64_t(kGraceSeconds * 1000) + 1000);
                    try {
                        control::RunEnd ours;
                        ours.status = status_code(ex.status);
                        ours.error = ex.error;
                        control::RunEnd theirs = peer.finish(ours, wait);
                        combine(r, ex, theirs);
                        r.cpu_server = cpu_from_wire(theirs);
                        r.path.server = path_from_wire(theirs);
                    } catch (const ControlError &e) {
                        // No word from the server: this side's failure, not
                        // the server's (the server may be gone, see why).
                        session.broken = channel_failure(session, e, run);
                        lost_server(r, ex, session.broken);
                    }
                }
            }
        } catch (const std::exception &e) {
            session.broken = channel_failure(session, e, run);
            r.status = st.interrupted ? RunStatus::Interrupted : RunStatus::Failed;
            r.error = session.broken;
        }
    }
    r.rows = role.rows();
    // A skipped run did no work worth a CPU figure, whichever side skipped it.
    if (r.status == RunStatus::Skipped) r.cpu_client = r.cpu_server = CpuTime{};
    r.wall_seconds = double(monotonic_ns() - started) / 1e9;
    return r;
}

} // namespace cmdbench

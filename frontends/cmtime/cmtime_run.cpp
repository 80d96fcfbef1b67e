// One cmdbench-cmtime instance, on the core's
// mesh control plane and the shared CM / socket step engines.
#include "cmtime_run.hpp"

#include "cmdbench/cmtime/cm_engine.hpp"
#include "cmdbench/cmtime/cm_steps_setup.hpp"
#include "cmdbench/cmtime/sock_engine.hpp"
#include "cmtime_instance.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace cmdbench::cmtime_frontend {
namespace {

constexpr uint64_t kMaxQpn = (1u << 24) - 1;

cmtime::EngineHooks cm_hooks(Instance &in) {
    cmtime::EngineHooks hooks;
    hooks.barrier = [&in](int v) { in.mesh.barrier("cmtime " + std::to_string(v)); };
    hooks.check_stop = [&in](const char *what) { in.check_stop(what); };
    hooks.progress = [&in](const std::string &line) { in.console.line(line); };
    return hooks;
}

// Who listens: every peer's record, servers' with their CM listener (port
// included), and what follows for this peer.
struct CmMesh {
    std::vector<sockaddr_storage> listeners;
    uint64_t servers = 0, clients = 0, peers = 0;
    uint64_t n = 0; // this peer's connections: conns x the other side's peers
};

CmMesh exchange_setups(Instance &in, cmtime::CmEngine &engine) {
    const Options &o = in.o;
    cmtime::PeerSetup mine;
    mine.server = in.server;
    mine.count = o.conns;
    mine.base_qpn = o.base_qpn;
    if (in.server) mine.listen = engine.listen();
    std::vector<cmtime::PeerSetup> table;
    for (const auto &blob : in.mesh.allgather(cmtime::encode_setup(mine)))
        table.push_back(cmtime::decode_setup(blob));
    CmMesh m;
    for (const auto &p : table)
        if (p.server) m.listeners.push_back(p.listen);
    m.servers = m.listeners.size();
    m.peers = table.size();
    m.clients = m.peers - m.servers;
    if (m.servers == m.peers) throw std::runtime_error("cannot have all listeners");
    if (m.servers == 0) throw std::runtime_error("need at least 1 listener");
    m.n = in.server ? uint64_t(o.conns) * m.clients : uint64_t(o.conns) * m.servers;
    return m;
}

// Peers share devices in the lab: each announces its own fake QP range, or
// the CM rejects one end as stale (README.md, "Where cmdbench differs from
// cmtime on purpose"). This peer's first QP number.
uint32_t fake_qp_base(const Instance &in, const CmMesh &m) {
    const Options &o = in.o;
    const uint64_t span = uint64_t(o.conns) * std::max(m.servers, m.clients);
    if (o.base_qpn + m.peers * span > kMaxQpn)
        throw std::runtime_error("-q + -P x -c x max(clients, servers) must stay below 2^24 (" +
                                 std::to_string(kMaxQpn) + "), got " +
                                 std::to_string(o.base_qpn + m.peers * span));
    return uint32_t(o.base_qpn + uint64_t(in.mesh.index()) * span);
}

} // namespace

void Instance::check_stop(const char *what) {
    if (cmtime::now_ns() > deadline_ns)
        throw std::runtime_error(std::string(what) + ": timed out after " +
                                 std::to_string(o.wait_s) + " s (--timeout)");
    if (in_job) mesh.check_peers();
}

void Instance::publish(const std::string &name, const cmtime::StepReport &mine) {
    console.text(cmtime::format_table(mine));
    std::vector<uint8_t> blob = cmtime::encode_report(mine);
    blob.insert(blob.begin(), uint8_t(server ? 1 : 0));
    const auto all = mesh.gather(blob);
    if (!mesh.controller()) return;
    MeshTest test{name, {}};
    for (size_t i = 0; i < all.size(); ++i) {
        if (all[i].empty()) throw std::runtime_error("empty result from a peer");
        test.peers.push_back(
            {int(i), all[i][0] != 0,
             cmtime::decode_report(std::vector<uint8_t>(all[i].begin() + 1, all[i].end()))});
    }
    report.text(format_mesh(test));
    tests.push_back(std::move(test));
}

void run_rdma(Instance &in, const BindAddress &bind) {
    const Options &o = in.o;
    cmtime::EngineConfig config = o.engine;
    config.have_bind = true;
    config.bind = bind.addr;
    cmtime::CmEngine engine(config, cm_hooks(in));
    const CmMesh m = exchange_setups(in, engine);
    const uint64_t n = m.n;
    const uint32_t base = fake_qp_base(in, m);

    std::vector<sockaddr_storage> targets;
    for (uint64_t i = 0; i < (in.server ? 0 : n); ++i)
        targets.push_back(m.listeners[i % m.servers]);
    auto iteration = [&](uint64_t count, cmtime::QpMode mode) {
        if (in.server) return engine.run_server(count, mode);
        return engine.run_client(
            std::vector<sockaddr_storage>(targets.begin(), targets.begin() + long(count)), mode);
    };
    const char *verb = in.server ? "Accept" : "Connect";

    in.test_stop_point();
    in.console.line(in.server ? "Server warmup" : "Client warmup");
    iteration(in.server ? m.clients : m.servers, cmtime::QpMode{});

    cmtime::QpMode main_mode;
    if (o.mimic_us >= 0) {
        main_mode = {base, uint32_t(o.mimic_us)};
        in.console.line(std::string(verb) + " (" + std::to_string(n) +
                        ") simulated QPs test (delay " + std::to_string(o.mimic_us) + " us)");
    } else {
        in.console.line(std::string(verb) + " (" + std::to_string(n) + ") QPs test");
    }
    cmtime::StepReport main_report = iteration(n, main_mode);
    main_report.threads = o.engine.threads;
    in.publish("main", main_report);

    if (m.peers == 2) {
        in.console.line(std::string(verb) + " (" + std::to_string(n) + ") test - no QPs");
        cmtime::StepReport noqp = iteration(n, cmtime::QpMode{base, 0});
        noqp.threads = o.engine.threads;
        in.publish("no-qp", noqp);
    }
}

cmtime::SockHooks sock_hooks(Instance &in) {
    cmtime::SockHooks hooks;
    hooks.check_stop = [&in](const char *what) { in.check_stop(what); };
    hooks.remaining_ms = [&in] {
        const uint64_t now = cmtime::now_ns();
        return int64_t(now < in.deadline_ns ? (in.deadline_ns - now) / 1000000 : 0);
    };
    hooks.connected_barrier = [&in] { in.mesh.barrier("sockets connected"); };
    return hooks;
}

void run_sockets(Instance &in, const BindAddress &bind) {
    if (in.in_job) return run_socket_mesh(in, bind);
    const Options &o = in.o;
    cmtime::ensure_fd_limit(o.conns);
    cmtime::SockHooks hooks = sock_hooks(in);
    cmtime::StepReport report;
    if (in.server) {
        in.console.line("Server baseline socket setup");
        socklen_t len = 0;
        const sockaddr_storage addr = cmtime::resolve_tcp(bind.text.c_str(), o.port, true, len);
        const int listener = cmtime::sock_listen(addr, len, o.conns);
        // cmtime does not order the server's listen before the connects.
        in.mesh.barrier("sockets listening");
        in.console.line("Accept sockets");
        report = cmtime::sock_server(listener, o.conns, hooks);
        in.console.line("Closing sockets");
        in.console.line("Server baseline socket results:");
    } else {
        in.console.line("Client baseline socket setup");
        socklen_t len = 0;
        // As cmtime: the client connects to the controller address.
        const sockaddr_storage target =
            cmtime::resolve_tcp(o.controller.c_str(), o.port, false, len);
        cmtime::SockClientConfig config;
        config.count = o.conns;
        config.threads = o.engine.threads;
        in.mesh.barrier("sockets listening");
        in.console.line("Creating sockets");
        in.console.line("Connecting sockets");
        report = cmtime::sock_client(config, target, len, hooks);
        in.console.line("Closing sockets");
        in.console.line("Client baseline socket results:");
    }
    report.threads = o.engine.threads;
    in.publish("sockets", report);
}

int run_cmtime(const Options &o) {
    if (!o.sockets) {
        const std::string problem = cmtime::rdma_device_problem();
        if (!problem.empty()) {
            std::fprintf(stderr,
                         "cmdbench cmtime: No RDMA devices were detected (%s); run it in the "
                         "RDMA lab: tools/rdma-lab -- cmdbench cmtime ...\n",
                         problem.c_str());
            return 1;
        }
    }
    const BindAddress bind = bind_address(o);
    cmdbench::MeshOptions mo;
    mo.host = o.controller;
    mo.port = o.port;
    mo.peers = o.peers;
    mo.terms = "version=1 -P=" + std::to_string(o.peers) + " -c=" + std::to_string(o.conns) +
               " -S=" + (o.sockets ? "on" : "off");
    mo.timeout_ms = o.wait_s * 1000;
    mo.connect_window_ms = std::min(30000, mo.timeout_ms);
    Console console(o.json);
    const uint64_t deadline = cmtime::now_ns() + uint64_t(o.wait_s) * 1000000000ull;
    mo.on_elected = [&console](bool controller) {
        if (controller) console.line("Running as OOB root");
    };
    std::unique_ptr<cmdbench::Mesh> mesh = cmdbench::Mesh::join(mo);
    Instance in{o, *mesh, console, console, deadline, o.server, false, {}};
    try {
        if (o.sockets)
            run_sockets(in, bind);
        else
            run_rdma(in, bind);
    } catch (const cmdbench::MeshError &) {
        throw; // the mesh has told everyone
    } catch (const std::exception &e) {
        mesh->abort(mesh->peer_label(mesh->index()) + " failed: " + e.what());
        throw;
    }
    if (o.json && mesh->controller()) std::fputs(format_json(in.tests, o.peers).c_str(), stdout);
    return 0;
}

} // namespace cmdbench::cmtime_frontend

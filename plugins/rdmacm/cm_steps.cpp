// Test "cm-steps": cmtime's RDMA CM step timing for one client and one
// server. The peers swap a set-up message (count,
// version, the server's dynamic CM port), run the warm-up, the main test and
// optionally the no-QP test in step through the host's barriers, and the
// server's figures and per-step histograms travel to the client, which
// reports both tables.
#include "cm_steps.hpp"

#include "cmdbench/cmtime/cm_engine.hpp"
#include "cmdbench/cmtime/cm_steps_setup.hpp"
#include "cmdbench/cmtime/step_host.hpp"

#include <cmdbench/plugin-support/descriptors.hpp>
#include <cmdbench/plugin-support/param_spec.hpp>
#include <cmdbench/plugin-support/peer_protocol.hpp>
#include <cmdbench/rdma-util/net_address.hpp>
#include <netinet/in.h>
#include <rdma/rdma_cma.h>

namespace cmdbench::rdmacm {

// The steps are cmtime's (libs/cmtime), run by its RDMA CM engine.
using namespace cmdbench::cmtime;
namespace {

constexpr int64_t kMaxCount = 1000000;
constexpr int64_t kMaxQpn = (1 << 24) - 1;

// The keys as the scenario gives them; `engine` is made from them.
struct Params {
    uint64_t count;
    unsigned threads;
    std::string bind_address;
    int retries;
    int timeout_ms;
    int64_t mimic_delay_us;
    uint32_t base_qpn;
    bool no_qp_test;
    uint64_t max_pending;
    EngineConfig engine;
};

const cmdbench::support::ParamSpec<Params> &params() {
    static const auto spec = [] {
        cmdbench::support::ParamSpec<Params> p;
        p.integer("count", &Params::count, 100, 1, kMaxCount,
                  "connections from the client to the server (cmtime -c)")
            .integer("threads", &Params::threads, 1, 1, 1024, "worker threads (cmtime -n)")
            .text("bind_address", &Params::bind_address, "",
                  "local RDMA address for every CM bind (cmtime -b); \"\" = the server's --bind, "
                  "no client bind")
            .integer("retries", &Params::retries, 2, 0, 1000,
                     "re-attempts after an address or route resolution error (cmtime -r)")
            .integer("timeout_ms", &Params::timeout_ms, 2000, 1, 3600000,
                     "timeout of each address/route resolution request, ms (cmtime -t)")
            .integer("mimic_delay_us", &Params::mimic_delay_us, -1, -1, 999999,
                     "simulate QPs in the main test with this delay per create/modify, us "
                     "(cmtime -m); -1 = real QPs")
            .integer("base_qpn", &Params::base_qpn, 1000, 1, kMaxQpn,
                     "first fake QP number (cmtime -q); the server counts from base_qpn + count")
            .flag("no_qp_test", &Params::no_qp_test, false,
                  "also run cmtime's no-QP test (rows prefixed \"no-qp \")")
            // 256: EngineConfig::kPendingPerServer, one server.
            .integer("max_pending", &Params::max_pending, 256, 0, kMaxCount,
                     "client: most connects (and disconnects) waiting for the server's answer at "
                     "a time; 0 = all at once, as cmtime (a burst outruns a slow server: the CM "
                     "resends what the server answers late, and gives up after about 70 s)");
        return p;
    }();
    return spec;
}

// First address of node:port from rdma_getaddrinfo-compatible resolution.
sockaddr_storage resolve(const char *node, uint16_t port, bool passive) {
    sockaddr_storage addr{};
    std::string why;
    if (!cmdbench::rdma::resolve_ip(node, port, passive, addr, why))
        throw RunError(CMDBENCH_ERR, std::string("getaddrinfo ") + node + ": " + why);
    return addr;
}

Params read_params(const cmdbench_run_env &env) {
    const cmdbench::support::ParamReader in(env, "cm-steps");
    Params p = params().read(in);
    p.engine.threads = p.threads;
    p.engine.retries = p.retries;
    p.engine.timeout_ms = p.timeout_ms;
    p.engine.max_pending = p.max_pending;
    std::string where = p.bind_address;
    // The server falls back to the run's peer_host: the address the client
    // reached it at.
    if (where.empty() && env.role == CMDBENCH_ROLE_SERVER && env.peer_host) where = env.peer_host;
    if (!where.empty()) {
        p.engine.have_bind = true;
        p.engine.bind = resolve(where.c_str(), 0, true);
    }
    // Both peers share one device in the lab: disjoint fake QP ranges, or
    // the CM rejects the second end as stale (README.md, "Where cmdbench
    // differs from cmtime on purpose").
    if (p.base_qpn + 2 * p.count > uint64_t(kMaxQpn))
        throw RunError(CMDBENCH_ERR, "cm-steps: base_qpn + 2 * count must stay below 2^24 (" +
                                         std::to_string(kMaxQpn) +
                                         "), got base_qpn = " + std::to_string(p.base_qpn) +
                                         ", count = " + std::to_string(p.count));
    return p;
}

// The set-up: both sides run the same count; the payload is this side's
// PeerSetup as encode_setup writes it (its base QP number and the server's
// listener). Version 3: the set-up swap of plugin-support (2 added the
// barriers 112 and 114, cm_engine.hpp, before 12 and 14).
constexpr cmdbench::support::SetupSwap kSetup{0x434d5354 /* "CMST" */, 3, "count", "cm-steps"};

PeerSetup swap_setup(const cmdbench::support::Peer &peer, const PeerSetup &mine) {
    const std::vector<uint8_t> theirs = kSetup.swap(peer, mine.count, encode_setup(mine));
    try {
        return decode_setup(theirs);
    } catch (const std::exception &e) {
        peer.fail(std::string("set-up: ") + e.what());
    }
}

// Where the client connects: the server's published listener, or the run's
// server host with the published port when the server listens on "any".
sockaddr_storage client_target(const cmdbench_run_env &env, const PeerSetup &server) {
    sockaddr_storage t = server.listen;
    const bool any = (t.ss_family == AF_INET &&
                      reinterpret_cast<sockaddr_in *>(&t)->sin_addr.s_addr == htonl(INADDR_ANY)) ||
                     (t.ss_family == AF_INET6 &&
                      IN6_IS_ADDR_UNSPECIFIED(&reinterpret_cast<sockaddr_in6 *>(&t)->sin6_addr));
    if (!any) return t;
    const uint16_t port =
        ntohs(t.ss_family == AF_INET ? reinterpret_cast<sockaddr_in *>(&t)->sin_port
                                     : reinterpret_cast<sockaddr_in6 *>(&t)->sin6_port);
    return resolve(env.peer_host ? env.peer_host : "127.0.0.1", port, false);
}

void run_cm_steps(const cmdbench_run_env &env) {
    const std::string problem = rdma_device_problem();
    if (!problem.empty())
        throw RunError(CMDBENCH_ERR_SKIP,
                       problem + "; run it in the RDMA lab: tools/rdma-lab -- <command>");
    const Params p = read_params(env);
    const bool client = env.role == CMDBENCH_ROLE_CLIENT;
    EngineHooks hooks;
    const cmdbench::support::Peer peer(env, "cm-steps");
    hooks.barrier = [&peer](int v) { peer.barrier("cm-steps " + std::to_string(v)); };
    hooks.check_stop = [&env](const char *what) { check_stop(env, what); };
    hooks.progress = [&env](const std::string &line) {
        env.host->log(env.ctx, CMDBENCH_LOG_DEBUG, line.c_str());
    };
    CmEngine engine(p.engine, hooks);

    PeerSetup mine;
    mine.server = !client;
    mine.count = uint32_t(p.count);
    mine.base_qpn = client ? p.base_qpn : p.base_qpn + uint32_t(p.count);
    if (!client) mine.listen = engine.listen();
    const PeerSetup other = swap_setup(peer, mine);

    std::vector<sockaddr_storage> targets;
    if (client) targets.assign(p.count, client_target(env, other));
    auto iteration = [&](uint64_t n, QpMode mode) {
        if (!client) return engine.run_server(n, mode);
        return engine.run_client(
            std::vector<sockaddr_storage>(targets.begin(), targets.begin() + static_cast<long>(n)),
            mode);
    };
    // Warm-up: one connection, real QPs, not reported.
    iteration(1, QpMode{});
    QpMode main_mode;
    if (p.mimic_delay_us >= 0) main_mode = {mine.base_qpn, uint32_t(p.mimic_delay_us)};
    std::vector<std::pair<std::string, StepReport>> reports;
    reports.emplace_back("", iteration(p.count, main_mode));
    if (p.no_qp_test) reports.emplace_back("no-qp ", iteration(p.count, QpMode{mine.base_qpn, 0}));

    // The server's figures and histograms go to the client, which reports both.
    for (auto &[prefix, mine_report] : reports) {
        if (!client) {
            send_report(env, mine_report, "cm-steps: results");
            continue;
        }
        report_rows(env, mine_report, prefix);
        report_peer_rows(env, "server " + prefix, "cm-steps: results");
    }
}

} // namespace

const cmdbench_test &cm_steps_test() {
    static const cmdbench_test test = cmdbench::support::test_descriptor(
        "cm-steps",
        "cmtime: per-connection timing of the 17 RDMA CM connection steps, client and server", 0,
        params().size(), params().table(),
        [](const cmdbench_run_env *env) { return run_guarded(env, run_cm_steps); });
    return test;
}

} // namespace cmdbench::rdmacm

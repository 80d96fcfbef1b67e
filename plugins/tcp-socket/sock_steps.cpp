// Test "sock-steps": the connection steps TCP has, timed per connection the
// way cmtime times its RDMA CM steps:
//   client: socket() -> "create id", bind() -> "bind addr" (with
//   bind_address), connect() -> "cm connect", close() -> "destroy id", and
//   the whole connect phase as "full connect";
//   server: accept() -> "cm connect", close() -> "destroy id", first to last
//   accept as "full connect".
// The server listens before it tells the client its port (cmtime has no such
// ordering), both sides check that they agree on `count`, and the server's
// figures travel to the client, which reports both tables.
#include "sock_steps.hpp"

#include "cmdbench/cmtime/sock_engine.hpp"
#include "cmdbench/cmtime/step_host.hpp"

#include <cmdbench/plugin-support/byte_order.hpp>
#include <cmdbench/plugin-support/descriptors.hpp>
#include <cmdbench/plugin-support/param_spec.hpp>
#include <cmdbench/plugin-support/peer_protocol.hpp>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace cmdbench::tcp_socket {
namespace {

using cmdbench::support::get_be;
using cmtime::RunError;

constexpr int64_t kMaxCount = 1000000;
constexpr int64_t kMaxThreads = 1024;

struct Params {
    uint64_t count;
    unsigned threads;
    uint16_t port;
    std::string bind_address;
};

const cmdbench::support::ParamSpec<Params> &params() {
    static const auto spec = [] {
        cmdbench::support::ParamSpec<Params> p;
        p.integer("count", &Params::count, 100, 1, kMaxCount, "connections to make (cmtime -c)")
            .integer("threads", &Params::threads, 1, 1, kMaxThreads,
                     "worker threads for socket() and connect() (cmtime -n)")
            .integer("port", &Params::port, 0, 0, 65535,
                     "server port; 0 = ephemeral, announced over the control channel")
            .text("bind_address", &Params::bind_address, "",
                  "client: bind every socket to this address first (times \"bind addr\"); \"\" = "
                  "no bind");
        return p;
    }();
    return spec;
}

Params read_params(const cmdbench_run_env &env) {
    return params().read(cmdbench::support::ParamReader(env, "sock-steps"));
}

// The set-up: both sides run the same count; the payload is the server's
// port (u16, big-endian), empty from the client. 2: the set-up swap of
// plugin-support.
constexpr cmdbench::support::SetupSwap kSetup{0x534f434b /* "SOCK" */, 2, "count", "sock-steps"};

// Returns the other side's port (0 from the client).
uint16_t swap_setup(const cmdbench_run_env &env, uint16_t port, uint64_t count) {
    const cmdbench::support::Peer peer(env, "sock-steps");
    std::vector<uint8_t> mine;
    if (!peer.is_client()) cmdbench::support::append_be(mine, port, 2);
    const std::vector<uint8_t> theirs = kSetup.swap(peer, count, mine);
    if (theirs.size() != (peer.is_client() ? 2u : 0u))
        peer.fail(std::string("the ") + peer.other() + " sent a set-up payload of " +
                  std::to_string(theirs.size()) + " bytes");
    return theirs.empty() ? 0 : uint16_t(get_be(theirs.data(), 2));
}

constexpr const char *kConnectedBarrier = "sock-steps connected";

cmtime::SockHooks hooks(const cmdbench_run_env &env) {
    cmtime::SockHooks h;
    h.check_stop = [&env](const char *what) {
        cmtime::check_stop(env, (std::string("sock-steps: ") + what).c_str());
    };
    h.remaining_ms = [&env] { return env.host->remaining_ms(env.ctx); };
    h.connected_barrier = [&env] {
        cmdbench::support::Peer(env, "sock-steps").barrier(kConnectedBarrier);
    };
    return h;
}

cmtime::StepReport run_client(const cmdbench_run_env &env, const Params &p) {
    const uint16_t port = swap_setup(env, 0, p.count);
    cmtime::SockClientConfig config;
    config.count = p.count;
    config.threads = p.threads;
    if (!p.bind_address.empty()) {
        config.have_bind = true;
        config.bind = cmtime::resolve_tcp(p.bind_address.c_str(), "0", true, config.bind_len);
    }
    socklen_t len = 0;
    const sockaddr_storage target =
        cmtime::resolve_tcp(env.peer_host, std::to_string(port), false, len);
    return cmtime::sock_client(config, target, len, hooks(env));
}

cmtime::StepReport run_server(const cmdbench_run_env &env, const Params &p) {
    socklen_t len = 0;
    const sockaddr_storage addr =
        cmtime::resolve_tcp(env.peer_host, std::to_string(p.port), true, len);
    const int listener = cmtime::sock_listen(addr, len, p.count);
    try {
        swap_setup(env, cmtime::sock_port(listener), p.count);
    } catch (...) {
        ::close(listener);
        throw;
    }
    return cmtime::sock_server(listener, p.count, hooks(env));
}

void run_sock_steps(const cmdbench_run_env &env) {
    const Params p = read_params(env);
    cmtime::ensure_fd_limit(p.count);
    const cmtime::StepReport mine =
        env.role == CMDBENCH_ROLE_CLIENT ? run_client(env, p) : run_server(env, p);
    if (env.role != CMDBENCH_ROLE_CLIENT) {
        cmtime::send_report(env, mine, "sock-steps: results");
        return;
    }
    cmtime::report_rows(env, mine, "");
    cmtime::report_peer_rows(env, "server ", "sock-steps: results");
}

} // namespace

const cmdbench_test &sock_steps_test() {
    static const cmdbench_test test = cmdbench::support::test_descriptor(
        "sock-steps",
        "cmtime -S: per-connection timing of TCP socket, bind, connect, accept and close", 0,
        params().size(), params().table(),
        [](const cmdbench_run_env *env) { return cmtime::run_guarded(env, run_sock_steps); });
    return test;
}

} // namespace cmdbench::tcp_socket

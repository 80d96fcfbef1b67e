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
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace tcp_socket {
namespace {

using cmdbench::support::get_be;
using cmdbench::support::put_be;
using cmtime::RunError;

constexpr int64_t kMaxCount = 1000000;
constexpr int64_t kMaxThreads = 1024;
constexpr uint32_t kSetupMagic = 0x534f434b; // "SOCK"
constexpr uint32_t kSetupLen = 10;

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

// Setup message: magic u32, port u16, count u32 (big-endian). Returns the
// peer's port after checking it runs the same count.
uint16_t swap_setup(const cmdbench_run_env &env, uint16_t port, uint64_t count) {
    uint8_t out[kSetupLen], in[kSetupLen] = {};
    const uint32_t c = uint32_t(count);
    put_be(out, kSetupMagic, 4);
    put_be(out + 4, port, 2);
    put_be(out + 6, c, 4);
    uint32_t got = 0;
    const int status = env.host->exchange(env.ctx, out, kSetupLen, in, kSetupLen, &got);
    if (status != CMDBENCH_OK) throw RunError(status, "sock-steps: setup exchange failed");
    const uint32_t magic = uint32_t(get_be(in, 4));
    if (got != kSetupLen || magic != kSetupMagic)
        throw RunError(CMDBENCH_ERR, "sock-steps: the peer is not running sock-steps");
    const uint32_t theirs = uint32_t(get_be(in + 6, 4));
    if (theirs != c) {
        const bool client = env.role == CMDBENCH_ROLE_CLIENT;
        throw RunError(CMDBENCH_ERR, std::string("sock-steps: count mismatch: the ") +
                                         (client ? "server" : "client") +
                                         " has count = " + std::to_string(theirs) + ", this " +
                                         (client ? "client" : "server") + " has " +
                                         std::to_string(c));
    }
    return uint16_t(get_be(in + 4, 2));
}

constexpr const char *kConnectedBarrier = "sock-steps connected";

void barrier(const cmdbench_run_env &env, const char *name) {
    const int status = env.host->barrier(env.ctx, name);
    if (status != CMDBENCH_OK)
        throw RunError(status, std::string("sock-steps: the ") +
                                   (env.role == CMDBENCH_ROLE_CLIENT ? "server" : "client") +
                                   " did not reach the barrier '" + name + "'");
}

cmtime::SockHooks hooks(const cmdbench_run_env &env) {
    cmtime::SockHooks h;
    h.check_stop = [&env](const char *what) {
        cmtime::check_stop(env, (std::string("sock-steps: ") + what).c_str());
    };
    h.remaining_ms = [&env] { return env.host->remaining_ms(env.ctx); };
    h.connected_barrier = [&env] { barrier(env, kConnectedBarrier); };
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

} // namespace tcp_socket

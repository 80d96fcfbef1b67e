// -S under a launcher: the sock-steps baseline as an N clients x M servers
// mesh, like the RDMA mode (cmtime itself allows -S only with -P 2). Each
// server listens on a free port of its own address (several servers may
// share a node) and publishes it; each client makes -c connections to every
// server, spread round-robin in rank order.
#include "cmdbench/cmtime/cm_steps_setup.hpp"
#include "cmdbench/cmtime/sock_engine.hpp"
#include "cmtime_instance.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdexcept>

namespace cmdbench::cmtime_frontend {
namespace {

void set_port(sockaddr_storage &addr, uint16_t port) {
    if (addr.ss_family == AF_INET6)
        reinterpret_cast<sockaddr_in6 *>(&addr)->sin6_port = htons(port);
    else
        reinterpret_cast<sockaddr_in *>(&addr)->sin_port = htons(port);
}

socklen_t addr_len(const sockaddr_storage &addr) {
    return addr.ss_family == AF_INET6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in);
}

} // namespace

void run_socket_mesh(Instance &in, const BindAddress &bind) {
    const Options &o = in.o;
    cmtime::SockHooks hooks = sock_hooks(in);

    const uint64_t P = uint64_t(in.mesh.peers()), L = uint64_t(o.servers), C = P - L;
    const uint64_t n = uint64_t(o.conns) * (in.server ? C : L);
    cmtime::ensure_fd_limit(n);
    cmtime::PeerSetup mine;
    mine.server = in.server;
    mine.count = o.conns;
    int listener = -1;
    if (in.server) {
        sockaddr_storage addr = bind.addr;
        set_port(addr, 0);
        listener = cmtime::sock_listen(addr, addr_len(addr), n);
        mine.listen = addr;
        set_port(mine.listen, cmtime::sock_port(listener));
    }
    // Every server listens before this returns: no client connects early.
    std::vector<cmtime::SockTarget> targets;
    for (const auto &blob : in.mesh.allgather(cmtime::encode_setup(mine))) {
        const cmtime::PeerSetup peer = cmtime::decode_setup(blob);
        if (peer.server) targets.push_back({peer.listen, addr_len(peer.listen)});
    }
    if (targets.size() != L)
        throw std::runtime_error(std::to_string(targets.size()) + " ranks serve, --servers says " +
                                 std::to_string(L));
    in.test_stop_point();
    cmtime::StepReport report;
    if (in.server) {
        report = cmtime::sock_server(listener, n, hooks);
    } else {
        cmtime::SockClientConfig config;
        config.count = n;
        config.threads = o.engine.threads;
        report = cmtime::sock_client(config, targets, hooks);
    }
    report.threads = o.engine.threads;
    in.publish("sockets", report);
}

} // namespace cmdbench::cmtime_frontend

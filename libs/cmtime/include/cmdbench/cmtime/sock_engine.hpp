// cmtime's -S TCP baseline without any RDMA call: the
// client times socket(), an optional bind(), connect() and close() per
// connection; the server accept() and close(). Shared by the sock-steps test
// (plugin tcp-socket) and the cmdbench-cmtime front end, which supply the
// synchronisation and the stop check.
#pragma once
#include "cmdbench/cmtime/step_table.hpp"

#include <functional>
#include <string>
#include <sys/socket.h>
#include <vector>

namespace cmdbench::cmtime {

struct SockHooks {
    std::function<void(const char *what)> check_stop; // throws to end the run
    std::function<int64_t()> remaining_ms;            // bounds each accept wait
    // Blocks until every peer finished connecting; the server keeps it
    // pending while it accepts, so a failed client ends the accepts early.
    std::function<void()> connected_barrier;
};

struct SockClientConfig {
    uint64_t count = 100;
    unsigned threads = 1;
    bool have_bind = false;
    sockaddr_storage bind{};
    socklen_t bind_len = 0;
};

// Each connection holds a descriptor: raise the soft limit when `count`
// needs it; throws naming the hard limit when it cannot.
void ensure_fd_limit(uint64_t count);

// First address of node:port (node empty or NULL = any, with passive).
sockaddr_storage resolve_tcp(const char *node, const std::string &port, bool passive,
                             socklen_t &len);

// A non-blocking listener bound to addr with backlog `count`.
int sock_listen(const sockaddr_storage &addr, socklen_t len, uint64_t count);
uint16_t sock_port(int fd);

StepReport sock_client(const SockClientConfig &config, const sockaddr_storage &target,
                       socklen_t target_len, const SockHooks &hooks);
// A client of several servers (cmdbench cmtime -S under a launcher):
// connection i goes to targets[i % targets.size()], as cm-steps' clients
// spread their connections over the listeners.
struct SockTarget {
    sockaddr_storage addr{};
    socklen_t len = 0;
};
StepReport sock_client(const SockClientConfig &config, const std::vector<SockTarget> &targets,
                       const SockHooks &hooks);
// Accepts `count` connections on `listener` (which it closes), then closes
// them.
StepReport sock_server(int listener, uint64_t count, const SockHooks &hooks);

} // namespace cmdbench::cmtime

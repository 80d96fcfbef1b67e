// The -S TCP baseline steps (see sock_engine.hpp).
#include "cmdbench/cmtime/sock_engine.hpp"

#include "async_call.hpp"
#include "cmdbench/cmtime/work_queue.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmdbench/plugin-support/run_error.hpp>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <memory>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdexcept>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

namespace cmdbench::cmtime {
namespace {

[[noreturn]] void fail_errno(const char *call, int err) {
    throw std::runtime_error(std::string(call) + ": " + cmdbench::support::errno_text(err));
}

// The descriptors of this run, closed on the way out whatever happens.
struct Sockets {
    std::vector<int> fd;
    ~Sockets() {
        for (int f : fd)
            if (f >= 0) ::close(f);
    }
};

constexpr long kShortSleepNs = 100000;

// The "destroy id" step: closes the first `count` sockets, timing each.
void close_all(Sockets &socks, uint64_t count, StepTimes &times) {
    times.total[kDestroyId].begin();
    for (uint64_t i = 0; i < count; ++i) {
        Interval &t = times.conn[i].step[kDestroyId];
        t.begin();
        ::close(socks.fd[i]);
        t.finish();
        socks.fd[i] = -1;
    }
    times.total[kDestroyId].finish();
}

// Runs item(0) .. item(n-1) on the queue's workers in connection order: one
// queue entry per worker, each claiming the next index, so the queue's
// locking is paid per worker rather than per connection. An item that
// throws stops the remaining ones.
void for_each_conn(WorkQueue &queue, unsigned workers, uint64_t n,
                   const std::function<void(uint64_t)> &item) {
    auto next = std::make_shared<std::atomic<uint64_t>>(0);
    for (unsigned w = 0; w < workers; ++w)
        queue.push([next, n, item, &queue] {
            for (uint64_t i; !queue.failed() && (i = next->fetch_add(1)) < n;)
                item(i);
        });
}

// Grows this process's descriptor table once, before anything is timed, to
// hold `count` more descriptors. The kernel doubles the table as descriptors
// are allocated, and in a multi-threaded process (cmdbench always is) each
// doubling waits for an RCU grace period: under load, milliseconds inside a
// timed socket() or accept() (5 doublings for 1,000 connections; a
// single-threaded C loop never pays them). Best effort: failure only costs
// that time.
void reserve_fd_table(uint64_t count) {
    rlimit lim{};
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur < 2) return;
    const uint64_t top = std::min<uint64_t>(count + 64, uint64_t(lim.rlim_cur) - 1);
    const int probe = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (probe < 0) return;
    const int high = ::fcntl(probe, F_DUPFD_CLOEXEC, int(std::min<uint64_t>(top, INT32_MAX)));
    if (high >= 0) ::close(high);
    ::close(probe);
}

// Ends the blocking connect()s still in progress when a run must stop
// (timeout, Ctrl-C, a failed peer): shutdown() wakes a connect() waiting in
// SYN_SENT (it fails with ECONNRESET), and a later connect() on a socket shut
// down this way fails at once (EINVAL), so the workers can be joined. This
// replaces a per-socket SO_SNDTIMEO: that setsockopt() inside the timed
// create-id loop cost about 6% of the connection rate on loopback.
void abort_connects(WorkQueue &queue, const std::vector<int> &fds) {
    queue.fail("stopped"); // no worker claims another connection
    for (int fd : fds)
        if (fd >= 0) ::shutdown(fd, SHUT_RDWR);
}

// Waits (bounded) for a connection on the listener and accepts it.
int accept_one(int listener, Interval &t, const SockHooks &hooks, AsyncCall &client_done) {
    for (;;) {
        client_done.rethrow_if_failed();
        hooks.check_stop("accepting");
        pollfd pfd{listener, POLLIN, 0};
        const int ms = int(std::clamp<int64_t>(hooks.remaining_ms(), 0, 100));
        const int n = ::poll(&pfd, 1, ms);
        if (n < 0 && errno != EINTR) fail_errno("poll", errno);
        if (n <= 0) continue;
        t.begin();
        const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
        t.finish();
        if (fd >= 0) return fd;
        if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED) fail_errno("accept", errno);
    }
}

// What the client's steps share: the connections to make, their sockets and
// times, and the workers that make them. The workers' tasks refer to all of
// it, so it outlives the queue (a failed wait leaves tasks behind).
struct ClientSteps {
    const SockClientConfig &p;
    const std::vector<SockTarget> &targets;
    StepTimes &times;
    Sockets &socks;
    StepCompletion &created, &connected; // see step_table.hpp
    WorkQueue &queue;
    const SockHooks &hooks;

    // What a wait checks between sleeps: a worker's failure, then the hooks'.
    std::function<void()> stop(const char *what) const {
        return [this, what] {
            if (queue.failed()) throw std::runtime_error(queue.failure());
            hooks.check_stop(what);
        };
    }
};

void create_sockets(const ClientSteps &c) {
    c.times.total[kCreateId].begin();
    // The tasks copy `c` (references only): they may outlive this call.
    for_each_conn(c.queue, c.p.threads, c.p.count, [c](uint64_t i) {
        Interval &t = c.times.conn[i].step[kCreateId];
        const int family = c.targets[i % c.targets.size()].addr.ss_family;
        t.begin();
        const int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        t.finish();
        if (fd < 0) fail_errno("socket", errno);
        c.socks.fd[i] = fd;
        c.created.complete(c.p.count, c.times.total[kCreateId]);
    });
    // Short sleeps: the connect phase starts when this wait ends, and the
    // whole connect of 1,000 loopback connections takes a few ms.
    wait_count(c.created.done, c.p.count, c.stop("creating sockets"), kShortSleepNs);
}

void bind_sockets(const ClientSteps &c) {
    c.times.total[kBindAddr].begin();
    for (uint64_t i = 0; i < c.p.count; ++i) {
        Interval &t = c.times.conn[i].step[kBindAddr];
        t.begin();
        const int rc =
            ::bind(c.socks.fd[i], reinterpret_cast<const sockaddr *>(&c.p.bind), c.p.bind_len);
        t.finish();
        if (rc != 0) fail_errno("bind", errno);
    }
    c.times.total[kBindAddr].finish();
}

void connect_sockets(const ClientSteps &c) {
    c.times.total[kConnect].begin();
    for_each_conn(c.queue, c.p.threads, c.p.count, [c](uint64_t i) {
        Interval &t = c.times.conn[i].step[kConnect];
        const SockTarget &to = c.targets[i % c.targets.size()];
        t.begin();
        const int rc =
            ::connect(c.socks.fd[i], reinterpret_cast<const sockaddr *>(&to.addr), to.len);
        t.finish();
        if (rc != 0) fail_errno("connect", errno);
        c.connected.complete(c.p.count, c.times.total[kConnect], &c.times.total[kFullConnect]);
    });
    try {
        wait_count(c.connected.done, c.p.count, c.stop("connecting"), kShortSleepNs);
    } catch (...) {
        abort_connects(c.queue, c.socks.fd);
        throw;
    }
}

} // namespace

void ensure_fd_limit(uint64_t count) {
    rlimit lim{};
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0) fail_errno("getrlimit", errno);
    const rlim_t need = rlim_t(count) + 64;
    if (lim.rlim_cur >= need) return;
    if (lim.rlim_max != RLIM_INFINITY && lim.rlim_max < need)
        throw std::runtime_error(std::to_string(count) + " connections need " +
                                 std::to_string(need) + " file descriptors, the hard limit is " +
                                 std::to_string(lim.rlim_max));
    lim.rlim_cur = need;
    if (setrlimit(RLIMIT_NOFILE, &lim) != 0) fail_errno("setrlimit", errno);
}

sockaddr_storage resolve_tcp(const char *node, const std::string &port, bool passive,
                             socklen_t &len) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = passive ? AI_PASSIVE : 0;
    addrinfo *found = nullptr;
    const int rc = getaddrinfo(node && *node ? node : nullptr, port.c_str(), &hints, &found);
    if (rc == EAI_SYSTEM) fail_errno("getaddrinfo", errno);
    if (rc != 0) throw std::runtime_error(std::string("getaddrinfo: ") + gai_strerror(rc));
    sockaddr_storage addr{};
    std::memcpy(&addr, found->ai_addr, found->ai_addrlen);
    len = found->ai_addrlen;
    freeaddrinfo(found);
    return addr;
}

int sock_listen(const sockaddr_storage &addr, socklen_t len, uint64_t count) {
    Sockets s;
    s.fd.push_back(::socket(addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    const int fd = s.fd[0];
    if (fd < 0) fail_errno("socket", errno);
    const int on = 1;
    if (::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0)
        fail_errno("setsockopt SO_REUSEADDR", errno);
    if (::bind(fd, reinterpret_cast<const sockaddr *>(&addr), len) != 0) fail_errno("bind", errno);
    if (::listen(fd, int(std::min<uint64_t>(count, 65535))) != 0) fail_errno("listen", errno);
    s.fd.clear();
    return fd;
}

uint16_t sock_port(int fd) {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    if (getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len) != 0)
        fail_errno("getsockname", errno);
    return ntohs(addr.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6 *>(&addr)->sin6_port
                                            : reinterpret_cast<sockaddr_in *>(&addr)->sin_port);
}

StepReport sock_client(const SockClientConfig &p, const sockaddr_storage &target,
                       socklen_t target_len, const SockHooks &hooks) {
    return sock_client(p, std::vector<SockTarget>{{target, target_len}}, hooks);
}

StepReport sock_client(const SockClientConfig &p, const std::vector<SockTarget> &targets,
                       const SockHooks &hooks) {
    if (targets.empty()) throw std::runtime_error("sock_client: no server to connect to");
    StepTimes times(p.count);
    Sockets socks;
    socks.fd.assign(p.count, -1);
    reserve_fd_table(p.count);
    StepCompletion created, connected;
    WorkQueue queue(p.threads);
    const ClientSteps steps{p, targets, times, socks, created, connected, queue, hooks};

    times.total[kFullConnect].begin();
    create_sockets(steps);
    if (p.have_bind) bind_sockets(steps);
    connect_sockets(steps);
    hooks.connected_barrier();

    close_all(socks, p.count, times);
    return compute_report(times, p.threads, false);
}

StepReport sock_server(int listener, uint64_t count, const SockHooks &hooks) {
    Sockets socks;
    socks.fd.assign(count + 1, -1);
    socks.fd[count] = listener;
    reserve_fd_table(count);
    StepTimes times(count);
    {
        AsyncCall client_done(hooks.connected_barrier);
        for (uint64_t i = 0; i < count; ++i) {
            socks.fd[i] = accept_one(listener, times.conn[i].step[kConnect], hooks, client_done);
            // cmtime stamps the start right after the first accept returns.
            if (i == 0) times.total[kFullConnect].start = times.conn[0].step[kConnect].end;
        }
        times.total[kFullConnect].finish();
        times.total[kConnect] = times.total[kFullConnect];
        client_done.finish();
    }
    close_all(socks, count, times);
    return compute_report(times, 1, false);
}

} // namespace cmdbench::cmtime

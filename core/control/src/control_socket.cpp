// TCP transport for the control channel. Sockets stay non-blocking for
// their whole life so that every wait is a poll() bounded by one deadline
// per call, never a blocking syscall that could hang on a silent peer.
#include "cmdbench/control/control.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace cmdbench::control {
namespace {

using Clock = std::chrono::steady_clock;

// A point in time after which a call gives up; timeout_ms < 0 never expires.
class Deadline {
  public:
    explicit Deadline(int timeout_ms)
        : forever_(timeout_ms < 0), end_(Clock::now() + std::chrono::milliseconds(timeout_ms)) {}
    // The poll() timeout still available: -1 for forever, 0 once expired.
    // Rounded up so a sub-millisecond remainder does not turn into a busy loop.
    int poll_ms() const {
        if (forever_) return -1;
        const auto left = end_ - Clock::now();
        if (left <= Clock::duration::zero()) return 0;
        return static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(left).count());
    }
    bool expired() const { return !forever_ && Clock::now() >= end_; }

  private:
    bool forever_;
    Clock::time_point end_;
};

std::string errno_text(int err) {
    return std::strerror(err);
}

// IPv4-mapped IPv6 addresses (from a dual-stack listener) as plain IPv4, so
// users see the address they typed. Returns the numeric host, "" on failure.
std::string numeric_host(const sockaddr *sa, socklen_t len, std::string *port = nullptr) {
    sockaddr_in v4{};
    if (sa->sa_family == AF_INET6) {
        const auto *s6 = reinterpret_cast<const sockaddr_in6 *>(sa);
        if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
            v4.sin_family = AF_INET;
            v4.sin_port = s6->sin6_port;
            std::memcpy(&v4.sin_addr, &s6->sin6_addr.s6_addr[12], 4);
            sa = reinterpret_cast<const sockaddr *>(&v4);
            len = sizeof v4;
        }
    }
    char host[NI_MAXHOST], serv[NI_MAXSERV];
    if (getnameinfo(sa, len, host, sizeof host, serv, sizeof serv,
                    NI_NUMERICHOST | NI_NUMERICSERV) != 0)
        return "";
    if (port) *port = serv;
    return host;
}

// "1.2.3.4:80" or "[::1]:80".
std::string format_addr(const sockaddr *sa, socklen_t len) {
    std::string port;
    const std::string host = numeric_host(sa, len, &port);
    if (host.empty()) return "";
    if (host.find(':') != std::string::npos) return "[" + host + "]:" + port;
    return host + ":" + port;
}

std::string host_port(const std::string &host, uint16_t port) {
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

void set_nonblocking(int fd) {
    const int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
        throw ControlError("control channel: cannot make socket non-blocking: " +
                           errno_text(errno));
}

void set_nodelay(int fd) {
    // Control messages are small request/response pairs: Nagle would only add latency.
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

// Waits for `events` on fd: 0 when ready, ETIMEDOUT when the deadline
// passes, another errno if poll itself fails. EINTR retries with the time left.
int wait_for(int fd, short events, const Deadline &dl) {
    for (;;) {
        pollfd p{fd, events, 0};
        const int n = poll(&p, 1, dl.poll_ms());
        if (n > 0) return 0;
        if (n == 0) return ETIMEDOUT;
        if (errno != EINTR) return errno;
    }
}

struct AddrInfo {
    addrinfo *list = nullptr;
    ~AddrInfo() {
        if (list) freeaddrinfo(list);
    }
};

void resolve(const std::string &host, uint16_t port, bool passive, AddrInfo &out) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
    const std::string serv = std::to_string(port);
    const int rc =
        getaddrinfo(host.empty() ? nullptr : host.c_str(), serv.c_str(), &hints, &out.list);
    if (rc != 0)
        throw ControlError("control channel: cannot resolve '" + host +
                           "': " + (rc == EAI_SYSTEM ? errno_text(errno) : gai_strerror(rc)));
}

// One non-blocking connect attempt; returns the fd or -1 with err set
// (ETIMEDOUT when the deadline ran out).
int try_connect(const addrinfo *ai, const Deadline &dl, int &err) {
    const int fd =
        socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
        err = errno;
        return -1;
    }
    int rc;
    do {
        rc = ::connect(fd, ai->ai_addr, ai->ai_addrlen);
    } while (rc < 0 && errno == EINTR);
    if (rc < 0 && errno == EINPROGRESS) {
        err = wait_for(fd, POLLOUT, dl);
        if (err != 0) {
            close(fd);
            return -1;
        }
        socklen_t len = sizeof err;
        if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0) err = errno;
        rc = err == 0 ? 0 : -1;
    } else if (rc < 0) {
        err = errno;
    }
    if (rc < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

} // namespace

Channel::Channel(int fd) : fd_(fd) {
    if (fd_ < 0) return;
    try {
        set_nonblocking(fd_);
    } catch (...) {
        close(fd_); // the channel owns fd from the start, even when it fails
        throw;
    }
    sockaddr_storage ss{};
    socklen_t len = sizeof ss;
    if (getpeername(fd_, reinterpret_cast<sockaddr *>(&ss), &len) == 0)
        peer_ = format_addr(reinterpret_cast<sockaddr *>(&ss), len);
}

Channel::~Channel() {
    if (fd_ >= 0) close(fd_);
}

Channel::Channel(Channel &&other) noexcept : fd_(other.fd_), peer_(std::move(other.peer_)) {
    other.fd_ = -1;
}

std::string Channel::peer_name() const {
    return peer_.empty() ? std::string("a peer of unknown address") : peer_;
}

std::string Channel::local_host() const {
    sockaddr_storage ss{};
    socklen_t len = sizeof ss;
    if (fd_ < 0 || getsockname(fd_, reinterpret_cast<sockaddr *>(&ss), &len) < 0) return "";
    return numeric_host(reinterpret_cast<sockaddr *>(&ss), len);
}

Channel Channel::connect(const std::string &host, uint16_t port, int timeout_ms) {
    const Deadline dl(timeout_ms);
    const std::string target = host_port(host.empty() ? "localhost" : host, port);
    AddrInfo ai;
    resolve(host, port, false, ai);
    // Names may resolve to several addresses (e.g. ::1 and 127.0.0.1): try
    // each in turn within the one deadline and report the last failure.
    int err = EHOSTUNREACH;
    for (const addrinfo *a = ai.list; a; a = a->ai_next) {
        const int fd = try_connect(a, dl, err);
        if (fd >= 0) {
            set_nodelay(fd);
            return Channel(fd);
        }
        if (dl.expired()) break;
    }
    if (err == ETIMEDOUT)
        throw ControlError("control channel: timed out after " + std::to_string(timeout_ms) +
                           " ms connecting to " + target);
    throw ControlError("control channel: cannot connect to " + target + ": " + errno_text(err));
}

void Channel::send(const Message &m, int timeout_ms) {
    const Deadline dl(timeout_ms);
    const std::vector<uint8_t> frame = encode(m);
    size_t off = 0;
    while (off < frame.size()) {
        const ssize_t n = ::send(fd_, frame.data() + off, frame.size() - off, MSG_NOSIGNAL);
        if (n > 0) {
            off += static_cast<size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            const int rc = wait_for(fd_, POLLOUT, dl);
            if (rc == ETIMEDOUT)
                throw ControlError("control channel: timed out after " +
                                   std::to_string(timeout_ms) + " ms sending to " + peer_name());
            if (rc == 0) continue;
            errno = rc;
        }
        const int err = n < 0 ? errno : EPIPE;
        if (err == EPIPE || err == ECONNRESET)
            throw ControlError("control channel: " + peer_name() + " closed the connection (" +
                               errno_text(err) + ")");
        throw ControlError("control channel: sending to " + peer_name() +
                           " failed: " + errno_text(err));
    }
}

namespace {

// Reads exactly n bytes before the deadline. `started` says whether part of
// the message has already arrived, only to word the error precisely.
void read_exact(const Channel &ch, uint8_t *buf, size_t n, const Deadline &dl, int timeout_ms,
                bool started) {
    size_t got = 0;
    while (got < n) {
        const ssize_t r = ::recv(ch.fd(), buf + got, n - got, 0);
        if (r > 0) {
            got += static_cast<size_t>(r);
            started = true;
            continue;
        }
        if (r == 0)
            throw ControlError("control channel: " + ch.peer_name() + " closed the connection" +
                               (started ? " in the middle of a message" : ""));
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            const int rc = wait_for(ch.fd(), POLLIN, dl);
            if (rc == ETIMEDOUT)
                throw ControlError("control channel: timed out after " +
                                   std::to_string(timeout_ms) + " ms waiting for " +
                                   ch.peer_name());
            if (rc == 0) continue;
            errno = rc;
        }
        const int err = errno;
        if (err == ECONNRESET)
            throw ControlError("control channel: " + ch.peer_name() + " closed the connection (" +
                               errno_text(err) + ")");
        throw ControlError("control channel: receiving from " + ch.peer_name() +
                           " failed: " + errno_text(err));
    }
}

} // namespace

Message Channel::recv(int timeout_ms) {
    // One deadline for the whole message: a peer trickling bytes cannot
    // stretch the wait beyond timeout_ms.
    const Deadline dl(timeout_ms);
    uint8_t header[kHeaderSize];
    read_exact(*this, header, sizeof header, dl, timeout_ms, false);
    Message m;
    uint32_t len;
    try {
        len = decode_header(header, m.type);
    } catch (const ControlError &e) {
        throw ControlError("control channel: " + peer_name() + ": " + e.what());
    }
    // Only now, with the length checked against kMaxPayload, is memory committed.
    m.payload.resize(len);
    if (len) read_exact(*this, m.payload.data(), len, dl, timeout_ms, true);
    return m;
}

namespace {

bool is_v6_wildcard(const addrinfo *a) {
    return a->ai_family == AF_INET6 &&
           IN6_IS_ADDR_UNSPECIFIED(&reinterpret_cast<const sockaddr_in6 *>(a->ai_addr)->sin6_addr);
}

void set_port(addrinfo *a, uint16_t port) {
    if (a->ai_family == AF_INET6)
        reinterpret_cast<sockaddr_in6 *>(a->ai_addr)->sin6_port = htons(port);
    else if (a->ai_family == AF_INET)
        reinterpret_cast<sockaddr_in *>(a->ai_addr)->sin_port = htons(port);
}

uint16_t bound_port(int fd) {
    sockaddr_storage ss{};
    socklen_t len = sizeof ss;
    if (getsockname(fd, reinterpret_cast<sockaddr *>(&ss), &len) < 0)
        throw ControlError("control channel: getsockname failed: " + errno_text(errno));
    if (ss.ss_family == AF_INET6)
        return ntohs(reinterpret_cast<const sockaddr_in6 *>(&ss)->sin6_port);
    return ntohs(reinterpret_cast<const sockaddr_in *>(&ss)->sin_port);
}

// A listening socket on one address, or -1 with err set.
int listen_socket(const addrinfo *a, int &err) {
    const int fd =
        socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
        err = errno;
        return -1;
    }
    const int one = 1, zero = 0;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    // The IPv6 wildcard takes IPv4 clients too (as mapped addresses), so
    // "any" and "::" mean both families on one socket.
    if (is_v6_wildcard(a)) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
    // A backlog the kernel may cap: the server accepts at once, so this only
    // absorbs bursts of connections.
    if (bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, SOMAXCONN) == 0) return fd;
    err = errno;
    close(fd);
    return -1;
}

std::vector<std::string> split_hosts(const std::string &hosts) {
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        const size_t comma = hosts.find(',', start);
        std::string item = hosts.substr(start, comma == std::string::npos ? comma : comma - start);
        item.erase(0, item.find_first_not_of(' '));
        item.erase(item.find_last_not_of(' ') + 1);
        // "a,,b" or "a," lists two addresses, not a wildcard.
        if (!item.empty()) out.push_back(item);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (out.empty()) out.push_back(""); // any address
    return out;
}

} // namespace

Listener::Listener(const std::string &host, uint16_t port) {
    try {
        for (const std::string &item : split_hosts(host))
            listen_on(item, port);
    } catch (...) {
        close();
        throw;
    }
}

// Listens on every address `host` resolves to. The IPv6 wildcard comes
// first and, being dual-stack, makes the IPv4 wildcard unnecessary; an
// address of a family this machine lacks is skipped while another works.
void Listener::listen_on(const std::string &host, uint16_t &port) {
    AddrInfo ai;
    resolve(host, port, true, ai);
    std::vector<addrinfo *> cands;
    for (addrinfo *a = ai.list; a; a = a->ai_next)
        cands.push_back(a);
    std::stable_partition(cands.begin(), cands.end(),
                          [](const addrinfo *a) { return a->ai_family == AF_INET6; });
    bool dual_stack = false, any = false;
    int err = EADDRNOTAVAIL;
    for (addrinfo *a : cands) {
        const bool v4_wildcard =
            a->ai_family == AF_INET &&
            reinterpret_cast<const sockaddr_in *>(a->ai_addr)->sin_addr.s_addr == INADDR_ANY;
        if (v4_wildcard && dual_stack) continue;
        set_port(a, port); // port 0: the first socket's ephemeral port for all
        const int fd = listen_socket(a, err);
        // Only a family this machine lacks is skipped; a port in use is not.
        if (fd < 0 && (err == EADDRNOTAVAIL || err == EAFNOSUPPORT)) continue;
        if (fd < 0)
            throw ControlError("control channel: cannot listen on " +
                               format_addr(a->ai_addr, a->ai_addrlen) + ": " + errno_text(err));
        fds_.push_back(fd);
        any = true;
        dual_stack = dual_stack || is_v6_wildcard(a);
        if (port == 0) port = bound_port(fd);
    }
    if (!any)
        throw ControlError("control channel: cannot listen on " +
                           host_port(host.empty() ? "*" : host, port) + ": " + errno_text(err));
}

Listener::~Listener() {
    close();
}

uint16_t Listener::port() const {
    return bound_port(fds_.at(0));
}

std::string Listener::addresses() const {
    std::string out;
    for (int fd : fds_) {
        sockaddr_storage a{};
        socklen_t len = sizeof a;
        if (getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) != 0) continue;
        out += (out.empty() ? "" : ", ") + format_addr(reinterpret_cast<sockaddr *>(&a), len);
    }
    return out;
}

Channel Listener::accept(int timeout_ms) {
    std::optional<Channel> ch = accept_within(timeout_ms);
    if (!ch)
        throw ControlError("control channel: timed out after " + std::to_string(timeout_ms) +
                           " ms waiting for a client on port " + std::to_string(port()));
    return std::move(*ch);
}

std::optional<Channel> Listener::accept_within(int timeout_ms) {
    const Deadline dl(timeout_ms);
    for (;;) {
        for (int lfd : fds_) {
            const int fd = accept4(lfd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd >= 0) {
                set_nodelay(fd);
                return std::optional<Channel>(std::in_place, fd);
            }
            // A client that gave up between poll and accept is not an error
            // for the listener: keep waiting for the next one.
            if (errno == EINTR || errno == ECONNABORTED || errno == EAGAIN || errno == EWOULDBLOCK)
                continue;
            throw ControlError("control channel: accept on port " + std::to_string(port()) +
                               " failed: " + errno_text(errno));
        }
        if (dl.expired()) return std::nullopt;
        std::vector<pollfd> polls;
        for (int lfd : fds_)
            polls.push_back({lfd, POLLIN, 0});
        const int n = poll(polls.data(), polls.size(), dl.poll_ms());
        if (n < 0 && errno != EINTR)
            throw ControlError("control channel: waiting for a client on port " +
                               std::to_string(port()) + " failed: " + errno_text(errno));
    }
}

void Listener::close() {
    for (int fd : fds_)
        ::close(fd);
    fds_.clear();
}

} // namespace cmdbench::control

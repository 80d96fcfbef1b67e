// Transport "unix": every hook of struct cmdbench_transport, implemented over
// AF_UNIX stream sockets.
//
// The rules every hook below follows (docs/plugin-abi.md):
//  - BSD conventions: return -1 and set errno on failure, exactly as the libc
//    call would. The tests print "<call>: strerror(errno)", so errno must be
//    meaningful. Hooks that get a ctx (probe, configure, resolve) report
//    failures with host->set_error instead, as one line.
//  - Never throw: this file is C++, but no exception may cross into the host
//    (it is C). The data-plane hooks cannot throw; the ctx hooks catch.
//  - Never block longer than asked: the tests bound every wait themselves
//    with poll() and non-blocking sockets, so the hooks just pass their
//    flags through. Do not add retries or sleeps here.
//  - Thread-safe: several threads (and several runs over time) may call the
//    hooks at once. State shared between calls lives in socket_paths.cpp,
//    behind a mutex.
//  - Handles are this transport's own. Here they happen to be kernel file
//    descriptors; a transport over a user-space stack would hand out its own
//    numbers (as rsockets does), and the tests must not care.
#include "unix_transport.hpp"

#include "socket_paths.hpp"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace unix_transport {
namespace {

constexpr int64_t kMaxBufferSize = 1073741824;

// The parameters a scenario may set for this transport (`socket_dir =
// "/run/x"` next to `transport = "unix"`). The host checks types and
// ranges before anything runs; strings and arrays are static, because the
// host keeps pointers to them while the plugin is loaded.
const cmdbench_param params[] = {
    {sizeof(cmdbench_param), "socket_dir", CMDBENCH_PARAM_STRING, "\"/tmp\"", 0, 0, 0, 0, nullptr,
     "directory of the socket files (<dir>/cmdbench-unix-<port>.sock); both peers must see it"},
    // The default is tcp's (rstream's 512 KiB), so that the two compare like
    // for like: AF_UNIX's own default (~208 KiB) makes 64 KiB streaming
    // several times slower.
    {sizeof(cmdbench_param), "buffer_size", CMDBENCH_PARAM_INT, "524288", 0, kMaxBufferSize, 0, 0,
     nullptr, "SO_SNDBUF and SO_RCVBUF in bytes; 0 keeps the kernel's default"},
};

void report(cmdbench_ctx *ctx, const cmdbench_host *host, const std::string &what, int err) {
    host->set_error(ctx, (what + ": " + std::strerror(err)).c_str());
}

bool socket_dir(cmdbench_ctx *ctx, const cmdbench_host *host, std::string &out) {
    const char *dir = nullptr;
    if (host->param_string(ctx, "socket_dir", &dir) != CMDBENCH_OK || !dir) {
        host->set_error(ctx, "unix: parameter socket_dir unavailable");
        return false;
    }
    out = dir;
    return true;
}

// probe: called once per run before any socket is made, on each peer. Say
// whether this machine can run the transport. CMDBENCH_ERR_SKIP is for "not
// here" (no device); a bad setting is a plain failure.
int unix_probe(cmdbench_ctx *ctx, const cmdbench_host *host) {
    try {
        std::string dir;
        if (!socket_dir(ctx, host, dir)) return CMDBENCH_ERR;
        struct stat st {};
        if (::stat(dir.c_str(), &st) != 0) {
            report(ctx, host, "unix: socket_dir '" + dir + "'", errno);
            return CMDBENCH_ERR;
        }
        if (!S_ISDIR(st.st_mode) || ::access(dir.c_str(), W_OK | X_OK) != 0) {
            host->set_error(ctx,
                            ("unix: socket_dir '" + dir + "' is not a writable directory").c_str());
            return CMDBENCH_ERR;
        }
        return CMDBENCH_OK;
    } catch (...) { // std::string allocation
        host->set_error(ctx, "unix probe: out of memory");
        return CMDBENCH_ERR;
    }
}

// configure: apply the transport's parameters to a socket. Called for a new
// client socket, for the listener (before bind, and again before each
// accept) and for each accepted socket; `hint` says what the test will use
// it for. Return 0, or -1 after set_error.
int unix_configure(cmdbench_ctx *ctx, const cmdbench_host *host, int sock, uint32_t /*stage*/,
                   uint32_t /*hint: nothing to tune per purpose here*/) {
    int64_t size = 0;
    if (host->param_int(ctx, "buffer_size", &size) != CMDBENCH_OK) {
        host->set_error(ctx, "unix: parameter buffer_size unavailable");
        return -1;
    }
    if (size == 0) return 0;
    const int value = static_cast<int>(size);
    for (int option : {SO_SNDBUF, SO_RCVBUF}) {
        if (::setsockopt(sock, SOL_SOCKET, option, &value, sizeof(value)) != 0) {
            try {
                report(ctx, host, option == SO_SNDBUF ? "unix: SO_SNDBUF" : "unix: SO_RCVBUF",
                       errno);
            } catch (...) {
                host->set_error(ctx, "unix configure: out of memory");
            }
            return -1;
        }
    }
    return 0;
}

// resolve: turn the test's host:port into an address of this transport.
// Without this hook the host would call getaddrinfo and hand out IP
// addresses. AF_UNIX is local, so `node` only has to name this machine; the
// port picks the socket file. `passive` (bind side) with port 0 asks for a
// free number, which bind() chooses.
int unix_resolve(cmdbench_ctx *ctx, const cmdbench_host *host, const char * /*node*/,
                 const char *service, int /*passive*/, sockaddr_storage *addr, socklen_t *addrlen) {
    try {
        std::string dir;
        if (!socket_dir(ctx, host, dir)) return -1;
        char *end = nullptr;
        errno = 0;
        const long port = service ? std::strtol(service, &end, 10) : 0;
        if (service && (errno != 0 || *end != '\0' || port < 0 || port > 65535)) {
            host->set_error(
                ctx, (std::string("unix: port '") + service + "' is not a number in [0, 65535]")
                         .c_str());
            return -1;
        }
        sockaddr_un un{};
        socklen_t len = 0;
        if (!path_for_port(dir, static_cast<uint16_t>(port), un, len)) {
            host->set_error(ctx, ("unix: socket_dir '" + dir + "' is too long for a socket path (" +
                                  std::to_string(sizeof(un.sun_path) - 1) + " bytes at most)")
                                     .c_str());
            return -1;
        }
        *addr = sockaddr_storage{};
        std::memcpy(addr, &un, len);
        *addrlen = len;
        return 0;
    } catch (...) {
        host->set_error(ctx, "unix resolve: out of memory");
        return -1;
    }
}

// The socket calls. `domain` is the family of the address resolve() gave
// (AF_UNIX); anything else is not ours.
int unix_socket(int domain, int type, int protocol) {
    if (domain != AF_UNIX) {
        errno = EAFNOSUPPORT;
        return -1;
    }
    return ::socket(AF_UNIX, type | SOCK_CLOEXEC, protocol);
}

int unix_bind(int sock, const sockaddr *addr, socklen_t len) {
    if (!addr || len < offsetof(sockaddr_un, sun_path) || len > sizeof(sockaddr_un)) {
        errno = EINVAL;
        return -1;
    }
    sockaddr_un un{};
    std::memcpy(&un, addr, len);
    return bind_numbered(sock, un, len);
}

int unix_listen(int sock, int backlog) {
    return ::listen(sock, backlog);
}

int unix_accept(int sock, sockaddr *addr, socklen_t *len) {
    return ::accept4(sock, addr, len, SOCK_CLOEXEC);
}

// A non-blocking AF_UNIX connect completes at once or fails (EAGAIN when
// the listener's backlog is full): it is never EINPROGRESS.
int unix_connect(int sock, const sockaddr *addr, socklen_t len) {
    return ::connect(sock, addr, len);
}

// MSG_NOSIGNAL: a peer that went away must be EPIPE for the test to
// report, not a SIGPIPE that kills the whole cmdbench process.
ssize_t unix_send(int sock, const void *buf, size_t len, int flags) {
    return ::send(sock, buf, len, flags | MSG_NOSIGNAL);
}

ssize_t unix_recv(int sock, void *buf, size_t len, int flags) {
    return ::recv(sock, buf, len, flags);
}

// Only this transport's handles are ever in `fds`.
int unix_poll(pollfd *fds, nfds_t nfds, int timeout_ms) {
    return ::poll(fds, nfds, timeout_ms);
}

// SO_REUSEADDR, SO_RCVTIMEO, SO_SNDTIMEO and SO_ERROR, which the stream
// tests use, all work on AF_UNIX sockets as they are.
int unix_setsockopt(int sock, int level, int name, const void *val, socklen_t len) {
    return ::setsockopt(sock, level, name, val, len);
}

int unix_getsockopt(int sock, int level, int name, void *val, socklen_t *len) {
    return ::getsockopt(sock, level, name, val, len);
}

// Only F_GETFL and F_SETFL (O_NONBLOCK) are part of the contract.
int unix_fcntl(int sock, int cmd, int arg) {
    if (cmd == F_GETFL) return ::fcntl(sock, F_GETFL);
    if (cmd == F_SETFL) return ::fcntl(sock, F_SETFL, arg);
    errno = EINVAL;
    return -1;
}

// A numbered socket file reads as 127.0.0.1:<its number>, so a test can
// announce "the port" it was given (see socket_paths.hpp). Other sockets
// (unnamed client ends) are reported as they are.
int unix_getsockname(int sock, sockaddr *addr, socklen_t *len) {
    sockaddr_un un{};
    socklen_t un_len = sizeof(un);
    if (::getsockname(sock, reinterpret_cast<sockaddr *>(&un), &un_len) != 0) return -1;
    const int port = port_of_path(un, un_len);
    if (port < 0) {
        std::memcpy(addr, &un, std::min<socklen_t>(*len, un_len));
        *len = un_len;
        return 0;
    }
    sockaddr_in in{};
    in.sin_family = AF_INET;
    in.sin_port = htons(static_cast<uint16_t>(port));
    in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    std::memcpy(addr, &in, std::min<socklen_t>(*len, sizeof(in)));
    *len = sizeof(in);
    return 0;
}

int unix_shutdown(int sock, int how) {
    return ::shutdown(sock, how);
}

// A listener's socket file goes with it, so the directory does not fill up
// with files nobody listens on.
int unix_close(int sock) {
    forget_bound_path(sock);
    return ::close(sock);
}

// The table. Field order is the ABI: keep it exactly as in plugin.h, and
// set struct_size to sizeof as compiled, so a newer host knows which
// fields this plugin has.
const cmdbench_transport transport = {
    sizeof(cmdbench_transport),
    "unix",
    "AF_UNIX stream sockets on this machine (example third-party transport)",
    0, // flags: no RDMA device needed
    sizeof(params) / sizeof(params[0]),
    params,
    unix_probe,
    unix_configure,
    unix_resolve,
    unix_socket,
    unix_bind,
    unix_listen,
    unix_accept,
    unix_connect,
    unix_send,
    unix_recv,
    unix_poll,
    unix_setsockopt,
    unix_getsockopt,
    unix_fcntl,
    unix_getsockname,
    unix_shutdown,
    unix_close,
    // local_node (ABI 1.1): where a run with both sides on this machine
    // should meet; NULL = anywhere will do. rsocket's returns an address
    // that an RDMA device owns.
    nullptr,
};

} // namespace

const cmdbench_transport &unix_transport() {
    return transport;
}

} // namespace unix_transport

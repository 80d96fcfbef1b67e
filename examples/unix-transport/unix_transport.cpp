// Transport "unix": AF_UNIX stream sockets, as a cmdbench transport.
//
// An fd-based transport sets only the hooks it changes (ABI 1.2): every
// data-path hook left NULL is the libc call on the fd (send() with
// MSG_NOSIGNAL, accept() with SOCK_CLOEXEC). This one changes four:
//  - socket: AF_UNIX only;
//  - bind: ports become numbered socket files (socket_paths.hpp);
//  - getsockname: a numbered file reads back as 127.0.0.1:<port>;
//  - close: a listener's socket file goes with it.
// The file a socket bound is its only state: a table indexed by the handle
// (the handle is the transport's own) keeps it from bind to close.
//
// The rules every hook follows (docs/plugin-abi.md):
//  - BSD conventions: return -1 and set errno on failure, exactly as the libc
//    call would. Hooks that get a cmdbench_ctx (probe, configure, resolve)
//    report failures with host->set_error instead, as one line.
//  - Never throw: no exception may cross into the host (it is C).
//  - Never block longer than asked: the tests bound every wait themselves.
//  - Thread-safe: several threads may call the hooks at once; a socket's
//    state is only touched by calls on that socket.
#include "unix_transport.hpp"

#include "socket_paths.hpp"

#include <algorithm>
#include <cerrno>
#include <cmdbench/plugin-support/param_spec.hpp>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>

namespace unix_transport {
namespace {

constexpr int64_t kMaxBufferSize = 1073741824;

// The parameters a scenario may set for this transport (`socket_dir =
// "/run/x"` next to `transport = "unix"`), each declared once with the field
// it fills (cmdbench/plugin-support/param_spec.hpp, header-only, in the SDK).
// The host checks types and ranges before anything runs; the spec is static,
// because the host keeps pointers into its table while the plugin is loaded.
struct Settings {
    std::string socket_dir;
    int64_t buffer_size = 0;
};

const cmdbench::support::ParamSpec<Settings> &params() {
    static const auto spec = [] {
        cmdbench::support::ParamSpec<Settings> p;
        p.text("socket_dir", &Settings::socket_dir, "/tmp",
               "directory of the socket files (<dir>/cmdbench-unix-<port>.sock); both peers "
               "must see it")
            // The default is tcp's (rstream's 512 KiB), so that the two
            // compare like for like: AF_UNIX's own default (~208 KiB) makes
            // 64 KiB streaming several times slower.
            .integer("buffer_size", &Settings::buffer_size, 524288, 0, kMaxBufferSize,
                     "SO_SNDBUF and SO_RCVBUF in bytes; 0 keeps the kernel's default");
        return p;
    }();
    return spec;
}

// This run's settings, or false after set_error.
bool settings(cmdbench_ctx *ctx, const cmdbench_host *host, Settings &out) {
    try {
        params().fill(cmdbench::support::ParamReader(host, ctx, "unix"), out);
    } catch (const cmdbench::support::RunError &e) {
        host->set_error(ctx, e.what());
        return false;
    }
    return true;
}

void report(cmdbench_ctx *ctx, const cmdbench_host *host, const std::string &what, int err) {
    host->set_error(ctx, (what + ": " + std::strerror(err)).c_str());
}

// probe: called once per run before any socket is made, on each peer. Say
// whether this machine can run the transport. CMDBENCH_ERR_SKIP is for "not
// here" (no device); a bad setting is a plain failure.
int unix_probe(cmdbench_ctx *ctx, const cmdbench_host *host) {
    try {
        Settings s;
        if (!settings(ctx, host, s)) return CMDBENCH_ERR;
        const std::string &dir = s.socket_dir;
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
    Settings s;
    try {
        if (!settings(ctx, host, s)) return -1;
    } catch (...) { // std::string allocation
        host->set_error(ctx, "unix configure: out of memory");
        return -1;
    }
    if (s.buffer_size == 0) return 0;
    const int value = static_cast<int>(s.buffer_size);
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
        Settings s;
        if (!settings(ctx, host, s)) return -1;
        const std::string &dir = s.socket_dir;
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

// The socket files bound and not yet closed, by handle: bind adds one,
// close removes it. Several threads may bind and close at once.
std::mutex g_bound_mu;
std::unordered_map<int, std::string> g_bound;

// `domain` is the family of the address resolve() gave (AF_UNIX); anything
// else is not ours.
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
    sockaddr_un un{}, bound{};
    std::memcpy(&un, addr, len);
    int rc = -1;
    try {
        rc = bind_numbered(sock, un, len, bound);
    } catch (...) { // std::string allocation
        errno = ENOMEM;
        return -1;
    }
    if (rc != 0 || !bound.sun_path[0]) return rc;
    try {
        std::lock_guard<std::mutex> lock(g_bound_mu);
        g_bound[sock] = bound.sun_path;
        return 0;
    } catch (...) { // the table's allocation: no file left behind
        ::unlink(bound.sun_path);
        errno = ENOMEM;
        return -1;
    }
}

// A socket's file goes before the socket: once closed, its number may be
// handed out again by another thread's socket().
int unix_close(int sock) {
    std::string file;
    {
        std::lock_guard<std::mutex> lock(g_bound_mu);
        if (auto it = g_bound.find(sock); it != g_bound.end()) {
            file.swap(it->second);
            g_bound.erase(it);
        }
    }
    if (!file.empty()) ::unlink(file.c_str());
    return ::close(sock);
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

// Set struct_size to sizeof as compiled, so a newer host knows which fields
// this plugin has. The data-path hooks not set here are libc's.
cmdbench_transport make_transport() {
    cmdbench_transport t{};
    t.struct_size = sizeof(t);
    t.name = "unix";
    t.description = "AF_UNIX stream sockets on this machine (example third-party transport)";
    t.flags = 0; // no RDMA device needed
    t.param_count = params().size();
    t.params = params().table();
    t.probe = unix_probe;
    t.configure = unix_configure;
    t.resolve = unix_resolve;
    t.socket = unix_socket;
    t.bind = unix_bind;
    t.getsockname = unix_getsockname;
    t.close = unix_close;
    // local_node (ABI 1.1) stays NULL: anywhere will do. rsocket's returns
    // an address that an RDMA device owns.
    return t;
}
const cmdbench_transport transport = make_transport();

} // namespace

const cmdbench_transport &unix_transport() {
    return transport;
}

} // namespace unix_transport

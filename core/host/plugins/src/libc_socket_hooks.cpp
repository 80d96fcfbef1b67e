#include "libc_socket_hooks.hpp"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>
#include <utility>

namespace cmdbench {
namespace {

// Descriptors never leak into the host's or a test's child processes.
int libc_socket(int domain, int type, int protocol) {
    return ::socket(domain, type | SOCK_CLOEXEC, protocol);
}
int libc_bind(int sock, const sockaddr *addr, socklen_t len) {
    return ::bind(sock, addr, len);
}
int libc_listen(int sock, int backlog) {
    return ::listen(sock, backlog);
}
int libc_accept(int sock, sockaddr *addr, socklen_t *len) {
    return ::accept4(sock, addr, len, SOCK_CLOEXEC);
}
int libc_connect(int sock, const sockaddr *addr, socklen_t len) {
    return ::connect(sock, addr, len);
}
// A peer that went away is EPIPE for the test to report, not a SIGPIPE
// that kills the process.
ssize_t libc_send(int sock, const void *buf, size_t len, int flags) {
    return ::send(sock, buf, len, flags | MSG_NOSIGNAL);
}
ssize_t libc_recv(int sock, void *buf, size_t len, int flags) {
    return ::recv(sock, buf, len, flags);
}
int libc_poll(pollfd *fds, nfds_t nfds, int timeout_ms) {
    return ::poll(fds, nfds, timeout_ms);
}
int libc_setsockopt(int sock, int level, int name, const void *val, socklen_t len) {
    return ::setsockopt(sock, level, name, val, len);
}
int libc_getsockopt(int sock, int level, int name, void *val, socklen_t *len) {
    return ::getsockopt(sock, level, name, val, len);
}
// The contract's fcntl is F_GETFL / F_SETFL only.
int libc_fcntl(int sock, int cmd, int arg) {
    if (cmd == F_GETFL) return ::fcntl(sock, F_GETFL);
    if (cmd == F_SETFL) return ::fcntl(sock, F_SETFL, arg);
    errno = EINVAL;
    return -1;
}
int libc_getsockname(int sock, sockaddr *addr, socklen_t *len) {
    return ::getsockname(sock, addr, len);
}
int libc_shutdown(int sock, int how) {
    return ::shutdown(sock, how);
}
int libc_close(int sock) {
    return ::close(sock);
}

template <class Fn> void fill(Fn &hook, Fn fallback) {
    if (!hook) hook = fallback;
}

} // namespace

const char *first_missing_socket_hook(const cmdbench_transport &t) {
    const std::pair<bool, const char *> hooks[] = {
        {t.socket != nullptr, "socket"},
        {t.bind != nullptr, "bind"},
        {t.listen != nullptr, "listen"},
        {t.accept != nullptr, "accept"},
        {t.connect != nullptr, "connect"},
        {t.send != nullptr, "send"},
        {t.recv != nullptr, "recv"},
        {t.poll != nullptr, "poll"},
        {t.setsockopt != nullptr, "setsockopt"},
        {t.getsockopt != nullptr, "getsockopt"},
        {t.fcntl != nullptr, "fcntl"},
        {t.getsockname != nullptr, "getsockname"},
        {t.shutdown != nullptr, "shutdown"},
        {t.close != nullptr, "close"},
    };
    for (const auto &[set, name] : hooks)
        if (!set) return name;
    return nullptr;
}

void fill_libc_socket_hooks(cmdbench_transport &t) {
    fill(t.socket, libc_socket);
    fill(t.bind, libc_bind);
    fill(t.listen, libc_listen);
    fill(t.accept, libc_accept);
    fill(t.connect, libc_connect);
    fill(t.send, libc_send);
    fill(t.recv, libc_recv);
    fill(t.poll, libc_poll);
    fill(t.setsockopt, libc_setsockopt);
    fill(t.getsockopt, libc_getsockopt);
    fill(t.fcntl, libc_fcntl);
    fill(t.getsockname, libc_getsockname);
    fill(t.shutdown, libc_shutdown);
    fill(t.close, libc_close);
}

} // namespace cmdbench

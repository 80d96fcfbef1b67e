// Port <-> path mapping and binding numbered socket files (see
// socket_paths.hpp).
#include "socket_paths.hpp"

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace unix_transport {
namespace {

constexpr const char *kPrefix = "cmdbench-unix-";
constexpr const char *kSuffix = ".sock";

// Numbers handed out for port 0: the IANA dynamic range, like TCP's
// ephemeral ports. Each process starts at a different place to make
// collisions between concurrent runs rare; a collision only costs a retry.
constexpr int kFirstDynamic = 49152;
constexpr int kDynamicCount = 65536 - kFirstDynamic;

std::atomic<int> next_dynamic{static_cast<int>(getpid() % kDynamicCount)};

std::string file_name(const sockaddr_un &addr, socklen_t len) {
    const size_t max =
        len > offsetof(sockaddr_un, sun_path) ? len - offsetof(sockaddr_un, sun_path) : 0;
    std::string path(addr.sun_path, strnlen(addr.sun_path, max));
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Whether a process is accepting on `addr`. A refused connection means the
// file is a leftover of a process that died without removing it.
bool someone_listens(const sockaddr_un &addr, socklen_t len) {
    const int probe = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (probe < 0) return true; // cannot tell: leave the file alone
    const int rc = ::connect(probe, reinterpret_cast<const sockaddr *>(&addr), len);
    const int err = errno;
    ::close(probe);
    return rc == 0 || err != ECONNREFUSED;
}

int bind_and_remember(int sock, const sockaddr_un &addr, socklen_t len, sockaddr_un &bound) {
    if (::bind(sock, reinterpret_cast<const sockaddr *>(&addr), len) != 0) return -1;
    bound = addr;
    return 0;
}

int bind_fixed(int sock, const sockaddr_un &addr, socklen_t len, sockaddr_un &bound) {
    if (bind_and_remember(sock, addr, len, bound) == 0) return 0;
    if (errno != EADDRINUSE || someone_listens(addr, len)) return -1;
    ::unlink(addr.sun_path); // stale: its owner is gone
    return bind_and_remember(sock, addr, len, bound);
}

int bind_dynamic(int sock, const sockaddr_un &any, sockaddr_un &bound) {
    const std::string name = file_name(any, sizeof(any));
    // The directory part, without the slash before the name.
    const size_t dir_len = std::strlen(any.sun_path) - name.size();
    const std::string dir(any.sun_path, dir_len > 0 ? dir_len - 1 : 0);
    for (int attempt = 0; attempt < kDynamicCount; ++attempt) {
        const int port = kFirstDynamic + next_dynamic.fetch_add(1) % kDynamicCount;
        sockaddr_un addr{};
        socklen_t len = 0;
        if (!path_for_port(dir, static_cast<uint16_t>(port), addr, len)) {
            errno = ENAMETOOLONG;
            return -1;
        }
        if (bind_and_remember(sock, addr, len, bound) == 0) return 0;
        if (errno != EADDRINUSE) return -1;
    }
    errno = EADDRINUSE; // every number taken: bounded, like TCP's range
    return -1;
}

} // namespace

bool path_for_port(const std::string &dir, uint16_t port, sockaddr_un &out, socklen_t &len) {
    out = sockaddr_un{};
    out.sun_family = AF_UNIX;
    const int n = std::snprintf(out.sun_path, sizeof(out.sun_path), "%s/%s%u%s", dir.c_str(),
                                kPrefix, static_cast<unsigned>(port), kSuffix);
    if (n < 0 || static_cast<size_t>(n) >= sizeof(out.sun_path)) return false;
    len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + n + 1);
    return true;
}

int port_of_path(const sockaddr_un &addr, socklen_t len) {
    const std::string name = file_name(addr, len);
    const size_t prefix = std::strlen(kPrefix), suffix = std::strlen(kSuffix);
    if (name.size() <= prefix + suffix || name.compare(0, prefix, kPrefix) != 0 ||
        name.compare(name.size() - suffix, suffix, kSuffix) != 0)
        return -1;
    const std::string digits = name.substr(prefix, name.size() - prefix - suffix);
    if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 5) return -1;
    const int port = std::atoi(digits.c_str());
    return port <= 65535 ? port : -1;
}

int bind_numbered(int sock, const sockaddr_un &addr, socklen_t len, sockaddr_un &bound) {
    if (addr.sun_family != AF_UNIX) {
        errno = EAFNOSUPPORT;
        return -1;
    }
    return port_of_path(addr, len) == 0 ? bind_dynamic(sock, addr, bound)
                                        : bind_fixed(sock, addr, len, bound);
}

} // namespace unix_transport

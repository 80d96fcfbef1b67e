// Whether this machine's loopback has IPv6 (::1 can be bound): tests of the
// IPv6 paths need it, and say so when it is missing.
#pragma once
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

inline bool loopback_has_ipv6() {
    const int fd = socket(AF_INET6, SOCK_STREAM, 0);
    if (fd < 0) return false;
    sockaddr_in6 a{};
    a.sin6_family = AF_INET6;
    a.sin6_addr = in6addr_loopback;
    const bool ok = bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0;
    close(fd);
    return ok;
}

#include "raw_control.hpp"

#include <arpa/inet.h>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace raw {
namespace {

using Clock = std::chrono::steady_clock;

int ms_left(Clock::time_point end) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now());
    return left.count() > 0 ? int(left.count()) : 0;
}

bool read_exact(int fd, char *buf, size_t n, Clock::time_point end) {
    size_t got = 0;
    while (got < n) {
        pollfd p{fd, POLLIN, 0};
        if (poll(&p, 1, ms_left(end)) <= 0) return false;
        const ssize_t r = ::recv(fd, buf + got, n - got, 0);
        if (r <= 0) return false;
        got += size_t(r);
    }
    return true;
}

uint32_t be32(const char *p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return ntohl(v);
}

} // namespace

int connect_to(const std::string &host, int port, int timeout_ms) {
    addrinfo hints{}, *found = nullptr;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
    if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0) return -1;
    const int fd = socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int rc = fd < 0 ? -1 : ::connect(fd, found->ai_addr, found->ai_addrlen);
    freeaddrinfo(found);
    if (fd < 0) return -1;
    if (rc < 0 && errno == EINPROGRESS) {
        pollfd p{fd, POLLOUT, 0};
        int err = ETIMEDOUT;
        socklen_t len = sizeof err;
        if (poll(&p, 1, timeout_ms) == 1) getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
        rc = err == 0 ? 0 : -1;
    }
    if (rc < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int listen_loopback(int &port) {
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (bind(fd, reinterpret_cast<sockaddr *>(&a), len) != 0 || listen(fd, 8) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) != 0) {
        close(fd);
        return -1;
    }
    port = ntohs(a.sin_port);
    return fd;
}

std::string u32(uint32_t v) {
    const uint32_t be = htonl(v);
    return std::string(reinterpret_cast<const char *>(&be), 4);
}

std::string f64(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    return u32(uint32_t(bits >> 32)) + u32(uint32_t(bits));
}

std::string str(const std::string &s) {
    return u32(uint32_t(s.size())) + s;
}

// Protocol version 3: version, software, and an empty nonce (no token).
std::string hello_payload(const std::string &software) {
    return std::string("\x00\x03", 2) + str(software) + str("");
}

std::string run_request_payload(const std::string &name, const std::string &test,
                                const std::string &transport, double timeout_s) {
    return str(name) + str(test) + str(transport) + f64(timeout_s) + u32(0);
}

bool send_frame(int fd, uint16_t type, const std::string &payload) {
    std::string frame = u32(0x434d4442) + std::string("\x00\x03", 2);
    frame += char(type >> 8);
    frame += char(type & 0xff);
    frame += u32(uint32_t(payload.size())) + payload;
    size_t off = 0;
    while (off < frame.size()) {
        pollfd p{fd, POLLOUT, 0};
        if (poll(&p, 1, 2000) <= 0) return false;
        const ssize_t n = ::send(fd, frame.data() + off, frame.size() - off, MSG_NOSIGNAL);
        if (n <= 0) return false;
        off += size_t(n);
    }
    return true;
}

bool recv_frame(int fd, int timeout_ms, uint16_t &type, std::string &payload) {
    const auto end = Clock::now() + std::chrono::milliseconds(timeout_ms);
    char header[12];
    if (!read_exact(fd, header, sizeof header, end) || be32(header) != 0x434d4442) return false;
    type = uint16_t((uint8_t(header[6]) << 8) | uint8_t(header[7]));
    const uint32_t len = be32(header + 8);
    if (len > (1u << 20)) return false;
    payload.assign(len, '\0');
    return len == 0 || read_exact(fd, payload.data(), len, end);
}

std::string payload_string(const std::string &payload, size_t offset) {
    if (payload.size() < offset + 4) return "";
    const uint32_t len = be32(payload.data() + offset);
    return payload.substr(offset + 4, len);
}

} // namespace raw

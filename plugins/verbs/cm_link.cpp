// rdma_cm event channel and address helpers (see cm_link.hpp).
#include "cm_link.hpp"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>

namespace verbs {

CmChannel::CmChannel() {
    channel_ = rdma_create_event_channel();
    if (!channel_) {
        const int err = errno;
        skip_no_device(std::string("rdma_create_event_channel: ") + std::strerror(err));
    }
    // Non-blocking, so every wait is a bounded poll().
    const int flags = fcntl(channel_->fd, F_GETFL);
    if (flags < 0 || fcntl(channel_->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        const int err = errno;
        rdma_destroy_event_channel(channel_);
        fail_errno("fcntl O_NONBLOCK on the rdma_cm event channel", err);
    }
}

CmChannel::~CmChannel() {
    if (channel_) rdma_destroy_event_channel(channel_);
}

CmEvent CmChannel::next(const Stopper &stop, const char *what) {
    for (;;) {
        rdma_cm_event *event = nullptr;
        if (rdma_get_cm_event(channel_, &event) == 0) {
            CmEvent out{event->event, event->id, event->status, {}};
            const auto *data = static_cast<const uint8_t *>(event->param.conn.private_data);
            if (data && (event->event == RDMA_CM_EVENT_CONNECT_REQUEST ||
                         event->event == RDMA_CM_EVENT_ESTABLISHED))
                out.private_data.assign(data, data + event->param.conn.private_data_len);
            rdma_ack_cm_event(event);
            return out;
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            fail_errno(std::string(what) + ": rdma_get_cm_event", errno);
        stop.check(what);
        pollfd pfd{channel_->fd, POLLIN, 0};
        const int64_t slice = std::min<int64_t>(stop.remaining_ms(), 100);
        if (poll(&pfd, 1, static_cast<int>(slice)) < 0 && errno != EINTR)
            fail_errno(std::string(what) + ": poll", errno);
    }
}

CmEvent CmChannel::expect(rdma_cm_event_type want, rdma_cm_id *id, const Stopper &stop,
                          const char *what) {
    CmEvent e = next(stop, what);
    if (e.type != want || (id && e.id != id))
        fail(std::string(what) + ": expected rdma_cm event " + rdma_event_str(want) + ", got " +
             rdma_event_str(e.type) + " (status " + std::to_string(e.status) +
             (e.status < 0 ? std::string(": ") + std::strerror(-e.status) : std::string()) + ")");
    return e;
}

void CmChannel::drain() {
    rdma_cm_event *event = nullptr;
    while (rdma_get_cm_event(channel_, &event) == 0)
        rdma_ack_cm_event(event);
}

sockaddr_storage resolve_ip(const std::string &host, uint16_t port, bool passive) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = passive ? AI_PASSIVE : 0;
    addrinfo *found = nullptr;
    const std::string service = std::to_string(port);
    const int rc =
        getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(), &hints, &found);
    if (rc != 0) fail("verbs: cannot resolve \"" + host + "\": " + gai_strerror(rc));
    sockaddr_storage addr{};
    std::memcpy(&addr, found->ai_addr, found->ai_addrlen);
    freeaddrinfo(found);
    return addr;
}

bool is_any_address(const sockaddr_storage &addr) {
    if (addr.ss_family == AF_INET)
        return reinterpret_cast<const sockaddr_in &>(addr).sin_addr.s_addr == htonl(INADDR_ANY);
    if (addr.ss_family == AF_INET6)
        return IN6_IS_ADDR_UNSPECIFIED(&reinterpret_cast<const sockaddr_in6 &>(addr).sin6_addr);
    return true;
}

void set_port(sockaddr_storage &addr, uint16_t port) {
    if (addr.ss_family == AF_INET) reinterpret_cast<sockaddr_in &>(addr).sin_port = htons(port);
    if (addr.ss_family == AF_INET6) reinterpret_cast<sockaddr_in6 &>(addr).sin6_port = htons(port);
}

std::string address_text(const sockaddr_storage &addr) {
    char host[INET6_ADDRSTRLEN] = "?";
    if (addr.ss_family == AF_INET) {
        const auto &a = reinterpret_cast<const sockaddr_in &>(addr);
        inet_ntop(AF_INET, &a.sin_addr, host, sizeof host);
        return std::string(host) + ":" + std::to_string(ntohs(a.sin_port));
    }
    if (addr.ss_family == AF_INET6) {
        const auto &a = reinterpret_cast<const sockaddr_in6 &>(addr);
        inet_ntop(AF_INET6, &a.sin6_addr, host, sizeof host);
        return "[" + std::string(host) + "]:" + std::to_string(ntohs(a.sin6_port));
    }
    return "(no address)";
}

// family (1: 4 or 6), port (2, big endian), address (16), scope id (4, big endian)
std::vector<uint8_t> encode_address(const sockaddr_storage &addr) {
    std::vector<uint8_t> out(23, 0);
    uint16_t port = 0;
    uint32_t scope = 0;
    if (addr.ss_family == AF_INET) {
        const auto &a = reinterpret_cast<const sockaddr_in &>(addr);
        out[0] = 4;
        port = ntohs(a.sin_port);
        std::memcpy(&out[3], &a.sin_addr, 4);
    } else if (addr.ss_family == AF_INET6) {
        const auto &a = reinterpret_cast<const sockaddr_in6 &>(addr);
        out[0] = 6;
        port = ntohs(a.sin6_port);
        std::memcpy(&out[3], &a.sin6_addr, 16);
        scope = a.sin6_scope_id;
    }
    out[1] = uint8_t(port >> 8);
    out[2] = uint8_t(port);
    for (int i = 0; i < 4; ++i)
        out[19 + i] = uint8_t(scope >> (24 - 8 * i));
    return out;
}

sockaddr_storage decode_address(const std::vector<uint8_t> &b) {
    if (b.size() != 23 || (b[0] != 4 && b[0] != 6))
        fail("verbs: the peer sent a malformed listening address (is it running verbs-lat or "
             "verbs-bw?)");
    sockaddr_storage addr{};
    const uint16_t port = uint16_t(b[1] << 8 | b[2]);
    if (b[0] == 4) {
        auto &a = reinterpret_cast<sockaddr_in &>(addr);
        a.sin_family = AF_INET;
        a.sin_port = htons(port);
        std::memcpy(&a.sin_addr, &b[3], 4);
    } else {
        auto &a = reinterpret_cast<sockaddr_in6 &>(addr);
        a.sin6_family = AF_INET6;
        a.sin6_port = htons(port);
        std::memcpy(&a.sin6_addr, &b[3], 16);
        a.sin6_scope_id =
            uint32_t(b[19]) << 24 | uint32_t(b[20]) << 16 | uint32_t(b[21]) << 8 | b[22];
    }
    return addr;
}

} // namespace verbs

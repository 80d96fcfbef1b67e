// rdma_cm event channel and address helpers (see cm_link.hpp).
#include "qp/cm_link.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <cmdbench/plugin-support/byte_order.hpp>
#include <cmdbench/rdma-util/cm_event.hpp>
#include <cmdbench/rdma-util/device_checks.hpp>
#include <cmdbench/rdma-util/net_address.hpp>
#include <cstring>
#include <netinet/in.h>

namespace cmdbench::verbs {

CmChannel::CmChannel() {
    // Non-blocking, so every wait is a bounded poll().
    cmdbench::rdma::ChannelFailure failure;
    channel_ = cmdbench::rdma::open_event_channel(failure);
    if (!channel_ && failure.step == cmdbench::rdma::ChannelFailure::Step::Create)
        skip_no_device(failure.call + ": " + cmdbench::support::errno_text(failure.err));
    if (!channel_) fail_errno(failure.call, failure.err);
}

CmChannel::~CmChannel() {
    if (channel_) rdma_destroy_event_channel(channel_);
}

CmEvent CmChannel::next(const Stopper &stop, const char *what) {
    for (;;) {
        rdma_cm_event *event = nullptr;
        const int64_t slice = std::min<int64_t>(stop.remaining_ms(), 100);
        const int got = cmdbench::rdma::wait_cm_event(channel_, static_cast<int>(slice), &event);
        if (got < 0) fail_errno(std::string(what) + ": rdma_get_cm_event", errno);
        if (got == 0) {
            stop.check(what);
            continue;
        }
        CmEvent out{event->event, event->id, event->status, {}};
        const auto *data = static_cast<const uint8_t *>(event->param.conn.private_data);
        if (data && (event->event == RDMA_CM_EVENT_CONNECT_REQUEST ||
                     event->event == RDMA_CM_EVENT_ESTABLISHED))
            out.private_data.assign(data, data + event->param.conn.private_data_len);
        if (event->event == RDMA_CM_EVENT_ESTABLISHED && event->id &&
            event->id->ps == RDMA_PS_UDP) {
            out.ud = event->param.ud;
            out.ud.private_data = nullptr;
        }
        rdma_ack_cm_event(event);
        return out;
    }
}

CmEvent CmChannel::expect(rdma_cm_event_type want, rdma_cm_id *id, const Stopper &stop,
                          const char *what) {
    CmEvent e = next(stop, what);
    if (e.type != want || (id && e.id != id))
        fail(std::string(what) + ": expected rdma_cm event " + rdma_event_str(want) + ", got " +
             rdma_event_str(e.type) + " (status " + std::to_string(e.status) +
             (e.status < 0 ? ": " + cmdbench::support::errno_text(-e.status) : std::string()) +
             ")");
    return e;
}

void CmChannel::drain() {
    rdma_cm_event *event = nullptr;
    while (rdma_get_cm_event(channel_, &event) == 0)
        rdma_ack_cm_event(event);
}

void check_cm_device(rdma_cm_id *id, const LinkSpec &link, const std::string &where) {
    if (!id->verbs) return;
    const std::string device = ibv_get_device_name(id->verbs->device);
    const std::string port = std::to_string(id->port_num);
    const std::string how = "; with connect = \"rdma_cm\" the device and port are those of the "
                            "address (set bind_address to an address of the one you want), or "
                            "use connect = \"exchange\"";
    if (!link.device.empty() && device != link.device)
        fail("verbs: device = \"" + link.device + "\" does not agree with " + where + ", on " +
             device + " port " + port + how);
    if (link.ib_port != 1 && id->port_num != link.ib_port)
        fail("verbs: ib_port = " + std::to_string(link.ib_port) + " does not agree with " + where +
             ", on " + device + " port " + port + how);
}

void set_cm_tos(rdma_cm_id *id, const LinkSpec &link) {
    if (link.traffic_class == 0) return;
    uint8_t tos = uint8_t(link.traffic_class);
    if (rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &tos, sizeof tos) != 0)
        fail_errno("rdma_set_option RDMA_OPTION_ID_TOS " + std::to_string(link.traffic_class),
                   errno);
}

void check_port(const rdma_cm_id *id) {
    if (!id || !id->verbs) return;
    const std::string problem = cmdbench::rdma::port_problem(id->verbs, id->port_num);
    if (!problem.empty()) fail("verbs: " + problem);
}

sockaddr_storage resolve_ip(const std::string &host, uint16_t port, bool passive) {
    sockaddr_storage addr{};
    std::string why;
    if (!cmdbench::rdma::resolve_ip(host.empty() ? nullptr : host.c_str(), port, passive, addr,
                                    why))
        fail("verbs: cannot resolve \"" + host + "\": " + why);
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
    cmdbench::support::put_be(&out[1], port, 2);
    cmdbench::support::put_be(&out[19], scope, 4);
    return out;
}

sockaddr_storage decode_address(const std::vector<uint8_t> &b) {
    if (b.size() != 23 || (b[0] != 4 && b[0] != 6))
        fail("verbs: the peer sent a malformed listening address (is it running verbs-lat or "
             "verbs-bw?)");
    sockaddr_storage addr{};
    const auto port = uint16_t(cmdbench::support::get_be(&b[1], 2));
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
        a.sin6_scope_id = uint32_t(cmdbench::support::get_be(&b[19], 4));
    }
    return addr;
}

} // namespace cmdbench::verbs

// Encoding of the cm-steps set-up message (see cm_steps_setup.hpp).
#include "cmdbench/cmtime/cm_steps_setup.hpp"

#include <arpa/inet.h>
#include <cmdbench/plugin-support/byte_order.hpp>
#include <cstring>
#include <netinet/in.h>
#include <stdexcept>

namespace cmdbench::cmtime {
namespace {

constexpr uint32_t kMagic = 0x434d5354; // "CMST"
constexpr size_t kLen = 4 + 2 + 1 + 4 + 4 + 2 + 2 + 16 + 4;

// Big-endian fields, appended to the message and taken from it in order.
constexpr auto put = cmdbench::support::append_be;
constexpr auto get = cmdbench::support::take_be;

} // namespace

std::vector<uint8_t> encode_setup(const PeerSetup &s) {
    std::vector<uint8_t> out;
    put(out, kMagic, 4);
    put(out, s.version, 2);
    put(out, s.server ? 1 : 0, 1);
    put(out, s.count, 4);
    put(out, s.base_qpn, 4);
    uint8_t addr[16] = {};
    uint16_t port = 0;
    uint32_t scope = 0;
    if (s.listen.ss_family == AF_INET) {
        const auto *a = reinterpret_cast<const sockaddr_in *>(&s.listen);
        std::memcpy(addr, &a->sin_addr, 4);
        port = ntohs(a->sin_port);
    } else if (s.listen.ss_family == AF_INET6) {
        const auto *a = reinterpret_cast<const sockaddr_in6 *>(&s.listen);
        std::memcpy(addr, &a->sin6_addr, 16);
        port = ntohs(a->sin6_port);
        scope = a->sin6_scope_id;
    }
    put(out, s.listen.ss_family == AF_INET ? 4 : s.listen.ss_family == AF_INET6 ? 6 : 0, 2);
    put(out, port, 2);
    out.insert(out.end(), addr, addr + 16);
    put(out, scope, 4);
    return out;
}

PeerSetup decode_setup(const std::vector<uint8_t> &bytes) {
    if (bytes.size() != kLen) throw std::runtime_error("set-up message of the wrong length");
    const uint8_t *p = bytes.data();
    if (get(p, 4) != kMagic) throw std::runtime_error("the peer is not running cm-steps");
    PeerSetup s;
    s.version = uint16_t(get(p, 2));
    s.server = get(p, 1) != 0;
    s.count = uint32_t(get(p, 4));
    s.base_qpn = uint32_t(get(p, 4));
    const uint64_t family = get(p, 2);
    const uint16_t port = uint16_t(get(p, 2));
    const uint8_t *addr = p;
    p += 16;
    const uint32_t scope = uint32_t(get(p, 4));
    if (family == 4) {
        auto *a = reinterpret_cast<sockaddr_in *>(&s.listen);
        a->sin_family = AF_INET;
        a->sin_port = htons(port);
        std::memcpy(&a->sin_addr, addr, 4);
    } else if (family == 6) {
        auto *a = reinterpret_cast<sockaddr_in6 *>(&s.listen);
        a->sin6_family = AF_INET6;
        a->sin6_port = htons(port);
        std::memcpy(&a->sin6_addr, addr, 16);
        a->sin6_scope_id = scope;
    }
    return s;
}

std::string address_text(const sockaddr_storage &addr) {
    char host[INET6_ADDRSTRLEN] = "?";
    if (addr.ss_family == AF_INET) {
        const auto *a = reinterpret_cast<const sockaddr_in *>(&addr);
        inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
        return std::string(host) + ":" + std::to_string(ntohs(a->sin_port));
    }
    if (addr.ss_family == AF_INET6) {
        const auto *a = reinterpret_cast<const sockaddr_in6 *>(&addr);
        inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
        return "[" + std::string(host) + "]:" + std::to_string(ntohs(a->sin6_port));
    }
    return "(no address)";
}

} // namespace cmdbench::cmtime

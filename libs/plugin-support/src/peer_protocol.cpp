// Barrier, exchange and set-up swap between the sides of a run (see
// peer_protocol.hpp).
#include "cmdbench/plugin-support/peer_protocol.hpp"

#include "cmdbench/plugin-support/byte_order.hpp"
#include "cmdbench/plugin-support/run_error.hpp"

#include <cstdio>
#include <utility>

namespace cmdbench::support {
namespace {

// How a host call ended, as the end of "barrier ... with the server ...".
const char *ended(int status) {
    switch (status) {
    case CMDBENCH_ERR_TIMEOUT:
        return "timed out";
    case CMDBENCH_ERR_CANCELLED:
        return "was cancelled";
    default:
        return "failed";
    }
}

// magic u32, version u16, role u8, count u64.
constexpr uint32_t kHeaderLen = 4 + 2 + 1 + 8;

std::string hex(uint32_t v) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", static_cast<unsigned>(v));
    return text;
}

} // namespace

Peer::Peer(const cmdbench_host &host, cmdbench_ctx *ctx, bool client, std::string tag)
    : host_(&host), ctx_(ctx), client_(client), tag_(std::move(tag)) {}

Peer::Peer(const cmdbench_run_env &env, std::string tag)
    : Peer(*env.host, env.ctx, env.role == CMDBENCH_ROLE_CLIENT, std::move(tag)) {}

void Peer::fail(const std::string &message) const {
    throw RunError(CMDBENCH_ERR, tag_.empty() ? message : tag_ + ": " + message);
}

void Peer::barrier(const std::string &name) const {
    const int status = host_->barrier(ctx_, name.c_str());
    if (status == CMDBENCH_OK) return;
    const std::string message =
        "barrier \"" + name + "\" with the " + other() + " " + ended(status);
    throw RunError(status, tag_.empty() ? message : tag_ + ": " + message);
}

uint32_t Peer::exchange(const void *data, uint32_t len, void *buf, uint32_t cap,
                        const std::string &what) const {
    uint32_t got = 0;
    const int status = host_->exchange(ctx_, data, len, buf, cap, &got);
    if (status == CMDBENCH_OK) return got;
    const std::string message = what + ": exchange with the " + other() + " " + ended(status);
    throw RunError(status, tag_.empty() ? message : tag_ + ": " + message);
}

std::vector<uint8_t> Peer::exchange(const std::vector<uint8_t> &ours, const std::string &what,
                                    uint32_t cap) const {
    std::vector<uint8_t> theirs(cap);
    const uint8_t none = 0;
    theirs.resize(exchange(ours.empty() ? &none : ours.data(), static_cast<uint32_t>(ours.size()),
                           theirs.data(), cap, what));
    return theirs;
}

std::vector<uint8_t> SetupSwap::swap(const Peer &peer, uint64_t count,
                                     const std::vector<uint8_t> &payload) const {
    std::vector<uint8_t> out;
    append_be(out, magic, 4);
    append_be(out, version, 2);
    append_be(out, peer.is_client() ? 0 : 1, 1);
    append_be(out, count, 8);
    out.insert(out.end(), payload.begin(), payload.end());
    const std::vector<uint8_t> in =
        peer.exchange(out, "set-up", kHeaderLen + static_cast<uint32_t>(payload.size()) + 65536);

    // Magic and version first, at fixed offsets: whatever else changes, a
    // peer from another release is named by its version.
    const std::string them = std::string("the ") + peer.other();
    const uint8_t *p = in.data();
    const uint32_t their_magic = in.size() >= 4 ? uint32_t(take_be(p, 4)) : 0;
    if (their_magic != magic)
        peer.fail(them + " is not running " + test + " (set-up magic " + hex(their_magic) +
                  ", expected " + hex(magic) + ")");
    if (in.size() < 6)
        peer.fail(them + " sent a set-up of " + std::to_string(in.size()) + " bytes");
    const uint16_t their_version = uint16_t(take_be(p, 2));
    if (their_version != version)
        peer.fail(them + " sent set-up version " + std::to_string(their_version) + ", this " +
                  peer.self() + " speaks " + std::to_string(version));
    if (in.size() < kHeaderLen)
        peer.fail(them + " sent a set-up of " + std::to_string(in.size()) + " bytes");
    const bool their_client = take_be(p, 1) == 0;
    if (their_client == peer.is_client())
        peer.fail(std::string("both sides are ") + (peer.is_client() ? "clients" : "servers"));
    const uint64_t their_count = take_be(p, 8);
    if (their_count != count)
        peer.fail(std::string(count_name) + " mismatch: " + them + " has " + count_name + " = " +
                  std::to_string(their_count) + ", this " + peer.self() + " has " +
                  std::to_string(count));
    return std::vector<uint8_t>(in.begin() + kHeaderLen, in.end());
}

} // namespace cmdbench::support

// HMAC as in RFC 2104: H((K ^ opad) || H((K ^ ipad) || message)), a key
// longer than the block hashed first, a shorter one padded with zeros.
#include "cmdbench/control/hmac.hpp"

#include <array>
#include <cstring>

namespace cmdbench {

Sha256Digest hmac_sha256(const void *key, size_t key_len, const void *message, size_t message_len) {
    std::array<uint8_t, Sha256::kBlockSize> block{};
    if (key_len > block.size()) {
        const Sha256Digest hashed = sha256(key, key_len);
        std::memcpy(block.data(), hashed.data(), hashed.size());
    } else if (key_len > 0) {
        std::memcpy(block.data(), key, key_len);
    }
    std::array<uint8_t, Sha256::kBlockSize> inner_pad, outer_pad;
    for (size_t i = 0; i < block.size(); ++i) {
        inner_pad[i] = block[i] ^ 0x36;
        outer_pad[i] = block[i] ^ 0x5c;
    }
    const Sha256Digest inner =
        Sha256().update(inner_pad.data(), inner_pad.size()).update(message, message_len).finish();
    return Sha256()
        .update(outer_pad.data(), outer_pad.size())
        .update(inner.data(), inner.size())
        .finish();
}

Sha256Digest hmac_sha256(const std::string &key, const std::vector<uint8_t> &message) {
    return hmac_sha256(key.data(), key.size(), message.data(), message.size());
}

bool constant_time_equal(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len) {
    if (a_len != b_len) return false; // lengths are public (a MAC is always 32 bytes)
    volatile uint8_t diff = 0;
    for (size_t i = 0; i < a_len; ++i)
        diff = diff | (a[i] ^ b[i]);
    return diff == 0;
}

} // namespace cmdbench

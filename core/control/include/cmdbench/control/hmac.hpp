// HMAC-SHA256 (RFC 2104) and a comparison whose time does not depend on
// where two MACs differ, for the `cmdbench serve` token handshake.
#pragma once
#include "cmdbench/control/sha256.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cmdbench {

Sha256Digest hmac_sha256(const void *key, size_t key_len, const void *message, size_t message_len);
Sha256Digest hmac_sha256(const std::string &key, const std::vector<uint8_t> &message);

// True when a and b are equal; looks at every byte whatever the contents.
bool constant_time_equal(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len);

} // namespace cmdbench

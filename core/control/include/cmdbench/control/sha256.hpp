// SHA-256 (FIPS 180-4), for the HMAC that authenticates `cmdbench serve`
// clients. Written here so the core needs no crypto library.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace cmdbench {

using Sha256Digest = std::array<uint8_t, 32>;

class Sha256 {
  public:
    static constexpr size_t kBlockSize = 64;

    Sha256();
    Sha256 &update(const void *data, size_t n);
    Sha256 &update(const std::string &s) { return update(s.data(), s.size()); }
    // Pads and returns the digest; the object must not be updated afterwards.
    Sha256Digest finish();

  private:
    void compress(const uint8_t *block);
    std::array<uint32_t, 8> state_;
    std::array<uint8_t, kBlockSize> buffer_{};
    size_t buffered_ = 0;
    uint64_t total_bytes_ = 0;
};

Sha256Digest sha256(const void *data, size_t n);

} // namespace cmdbench

// Big-endian (network order) integers in byte buffers: how plugins and
// front ends put figures and addresses into control-channel messages.
#ifndef CMDBENCH_PLUGIN_SUPPORT_BYTE_ORDER_HPP
#define CMDBENCH_PLUGIN_SUPPORT_BYTE_ORDER_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cmdbench::support {

// The low `bytes` bytes of v at out[0 .. bytes), most significant first.
inline void put_be(uint8_t *out, uint64_t v, int bytes) {
    for (int i = bytes - 1; i >= 0; --i, v >>= 8)
        out[i] = static_cast<uint8_t>(v);
}

inline uint64_t get_be(const uint8_t *in, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v = v << 8 | in[i];
    return v;
}

inline void put_be64(uint8_t *out, uint64_t v) {
    put_be(out, v, 8);
}

inline uint64_t get_be64(const uint8_t *in) {
    return get_be(in, 8);
}

// Appends the low `bytes` bytes of v, most significant first.
inline void append_be(std::vector<uint8_t> &out, uint64_t v, int bytes) {
    out.resize(out.size() + static_cast<size_t>(bytes));
    put_be(out.data() + out.size() - static_cast<size_t>(bytes), v, bytes);
}

// Reads `bytes` bytes at p and moves p past them.
inline uint64_t take_be(const uint8_t *&p, int bytes) {
    const uint64_t v = get_be(p, bytes);
    p += bytes;
    return v;
}

} // namespace cmdbench::support

#endif

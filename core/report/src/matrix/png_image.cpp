// PNG (ISO/IEC 15948): signature, IHDR, one IDAT of the zlib-compressed
// scanlines (filter 0), IEND; zlib's crc32 for the chunks.
#include "matrix/png_image.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <zlib.h>

namespace cmdbench {
namespace {

void put32(std::string &out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(char((v >> shift) & 0xff));
}

void chunk(std::string &out, const char *type, const std::string &data) {
    put32(out, uint32_t(data.size()));
    const std::string typed = std::string(type, 4) + data;
    out += typed;
    put32(out,
          uint32_t(crc32(0, reinterpret_cast<const Bytef *>(typed.data()), uInt(typed.size()))));
}

} // namespace

std::string png_image(const std::vector<Rgb> &pixels, unsigned width, unsigned height) {
    if (pixels.size() != size_t(width) * height || width == 0 || height == 0)
        throw std::invalid_argument("png_image: pixel count is not width x height");
    std::string raw;
    raw.reserve(size_t(height) * (1 + size_t(width) * 3));
    for (unsigned y = 0; y < height; ++y) {
        raw.push_back(0); // filter: none
        for (unsigned x = 0; x < width; ++x) {
            const Rgb &p = pixels[size_t(y) * width + x];
            raw.push_back(char(p.r));
            raw.push_back(char(p.g));
            raw.push_back(char(p.b));
        }
    }
    uLongf packed_size = compressBound(uLong(raw.size()));
    std::string packed(packed_size, '\0');
    if (compress2(reinterpret_cast<Bytef *>(packed.data()), &packed_size,
                  reinterpret_cast<const Bytef *>(raw.data()), uLong(raw.size()),
                  Z_BEST_COMPRESSION) != Z_OK)
        throw std::runtime_error("png_image: zlib compress2 failed");
    packed.resize(packed_size);

    std::string out = "\x89PNG\r\n\x1a\n";
    std::string header;
    put32(header, width);
    put32(header, height);
    header += std::string("\x08\x02\x00\x00\x00", 5); // 8-bit RGB, deflate, no filter/interlace
    chunk(out, "IHDR", header);
    chunk(out, "IDAT", packed);
    chunk(out, "IEND", "");
    return out;
}

std::string base64(const std::string &bytes) {
    static const char kDigits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (size_t i = 0; i < bytes.size(); i += 3) {
        const size_t n = std::min<size_t>(3, bytes.size() - i);
        uint32_t v = uint32_t(uint8_t(bytes[i])) << 16;
        if (n > 1) v |= uint32_t(uint8_t(bytes[i + 1])) << 8;
        if (n > 2) v |= uint8_t(bytes[i + 2]);
        out.push_back(kDigits[(v >> 18) & 63]);
        out.push_back(kDigits[(v >> 12) & 63]);
        out.push_back(n > 1 ? kDigits[(v >> 6) & 63] : '=');
        out.push_back(n > 2 ? kDigits[v & 63] : '=');
    }
    return out;
}

} // namespace cmdbench

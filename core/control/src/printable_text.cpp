#include "cmdbench/control/printable_text.hpp"

#include <cstdint>
#include <cstdio>

namespace cmdbench {
namespace {

void append_escape(std::string &out, uint8_t byte) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", byte);
    out += buf;
}

// Length of the well-formed UTF-8 sequence at the start of s (2-4 bytes,
// no overlongs or surrogates), or 0 when there is none.
size_t utf8_sequence(std::string_view s) {
    const auto b = [&](size_t i) { return uint8_t(s[i]); };
    const auto cont = [&](size_t i) { return i < s.size() && (b(i) & 0xc0) == 0x80; };
    const uint8_t lead = b(0);
    if (lead >= 0xc2 && lead <= 0xdf) return cont(1) ? 2 : 0;
    if (lead >= 0xe0 && lead <= 0xef) {
        if (!cont(1) || !cont(2)) return 0;
        if (lead == 0xe0 && b(1) < 0xa0) return 0; // overlong
        if (lead == 0xed && b(1) > 0x9f) return 0; // surrogate
        return 3;
    }
    if (lead >= 0xf0 && lead <= 0xf4) {
        if (!cont(1) || !cont(2) || !cont(3)) return 0;
        if (lead == 0xf0 && b(1) < 0x90) return 0; // overlong
        if (lead == 0xf4 && b(1) > 0x8f) return 0; // beyond U+10FFFF
        return 4;
    }
    return 0;
}

} // namespace

std::string printable_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        const uint8_t c = uint8_t(text[i]);
        if (c >= 0x20 && c < 0x7f) {
            out += char(c);
            ++i;
            continue;
        }
        const size_t n = c >= 0x80 ? utf8_sequence(text.substr(i)) : 0;
        // U+0080..U+009F (C2 80..C2 9F) are the C1 controls, CSI among them.
        const bool c1 = n == 2 && c == 0xc2 && uint8_t(text[i + 1]) < 0xa0;
        if (n == 0 || c1) {
            append_escape(out, c);
            ++i;
            continue;
        }
        out.append(text.substr(i, n));
        i += n;
    }
    return out;
}

std::string printable_excerpt(std::string_view text, size_t max_bytes) {
    if (text.size() <= max_bytes) return printable_text(text);
    return printable_text(text.substr(0, max_bytes)) + "...[" + std::to_string(text.size()) +
           " bytes]";
}

} // namespace cmdbench

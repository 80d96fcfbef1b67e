#include "cmdbench/control/bounded_text.hpp"

namespace cmdbench {
namespace {

bool continuation_byte(char c) {
    return (static_cast<unsigned char>(c) & 0xc0) == 0x80;
}

std::string marker(size_t cut) {
    return " [... " + std::to_string(cut) + " more bytes cut]";
}

} // namespace

std::string bounded_text(std::string_view text, size_t max_bytes) {
    if (text.size() <= max_bytes) return std::string(text);
    // The marker's length depends on the count it names, which is at most
    // text.size(): reserving that much keeps the result within max_bytes.
    const size_t longest = marker(text.size()).size();
    if (max_bytes <= longest) return std::string(text.substr(0, max_bytes)); // no room to say
    const size_t room = max_bytes - longest;
    size_t keep = room;
    // Back to the start of the character the cut would split (UTF-8 has at
    // most three continuation bytes; text that is not UTF-8 is cut anywhere).
    for (int i = 0; i < 3 && keep > 0 && continuation_byte(text[keep]); ++i)
        --keep;
    if (continuation_byte(text[keep])) keep = room;
    return std::string(text.substr(0, keep)) + marker(text.size() - keep);
}

} // namespace cmdbench

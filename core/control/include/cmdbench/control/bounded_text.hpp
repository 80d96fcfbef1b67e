// Text of any length (a plugin's error message) cut to fit a control frame.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace cmdbench {

// At most max_bytes of `text`: unchanged when it fits; else its start, cut
// at a UTF-8 character boundary, then a marker saying how much was left out
// (" [... 983040 more bytes cut]"), the whole within max_bytes. max_bytes
// must leave room for the marker (at least 64).
std::string bounded_text(std::string_view text, size_t max_bytes);

} // namespace cmdbench

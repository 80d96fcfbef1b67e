// Text a peer sent (its software string, error texts, run names), made safe
// to print on a terminal: a peer must not be able to move the cursor, retitle
// the window or clear the screen of whoever reads our logs.
#pragma once
#include <string>
#include <string_view>

namespace cmdbench {

// Control characters (C0, DEL, C1) and bytes that are not valid UTF-8 become
// visible escapes ("\x1b"); a backslash is kept as is, other text unchanged.
std::string printable_text(std::string_view text);

// What logs and messages show of a peer's text: printable_text of at most
// max_bytes of it, then "...[N bytes]" when it was longer, so a megabyte
// of escapes costs the log one short line.
constexpr size_t kPeerTextShown = 128;
std::string printable_excerpt(std::string_view text, size_t max_bytes = kPeerTextShown);

} // namespace cmdbench

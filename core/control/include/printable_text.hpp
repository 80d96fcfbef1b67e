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

} // namespace cmdbench

// Whether `cmdbench serve` can be reached from other machines, and the
// warning it prints when it can and has no token (docs/security.md).
#pragma once
#include <string>

namespace cmdbench {

// Where `serve` listens unless --bind says otherwise: this machine only.
constexpr const char *kDefaultServeBind = "127.0.0.1,::1";

// 127.0.0.0/8, ::1, an IPv4-mapped loopback address, or "localhost".
bool is_loopback_host(const std::string &host);

// The warning for a server listening on `bind` ("" = every address), or ""
// when it is on loopback or holds a token.
std::string exposure_warning(const std::string &bind, bool has_token);

} // namespace cmdbench

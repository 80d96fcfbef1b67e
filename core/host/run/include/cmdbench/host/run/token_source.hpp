// Where `cmdbench serve` and `cmdbench run --server` find the shared secret
// of the control handshake: --token-file FILE, --token TEXT (visible to other
// users in ps) or the CMDBENCH_TOKEN environment variable, in that order.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

namespace cmdbench {

constexpr const char *kTokenEnv = "CMDBENCH_TOKEN";
// Shorter tokens could be guessed from one recorded handshake.
constexpr size_t kMinTokenLength = 16;

// The token, or "" when none is given. Throws std::invalid_argument naming
// the option (both options at once, an unreadable or empty file, a token
// shorter than kMinTokenLength).
std::string resolve_token(const std::optional<std::string> &token_option,
                          const std::optional<std::string> &file_option);

} // namespace cmdbench

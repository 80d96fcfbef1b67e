// A TOML value as text, the form parse_text (params.hpp) reads: how a
// scenario's values reach the same checks as --set's.
#pragma once
#include <string>
#include <toml++/toml.h>

namespace cmdbench {

// The TOML text of a node. A table is written inline: the per-side form of
// `cpus` and `numa` reads it; for anything else parse_text reports the type
// mismatch.
std::string node_text(const toml::node &n);

} // namespace cmdbench

// A TOML value as text, the form parse_text (params.hpp) reads: how a
// scenario's values reach the same checks as --set's.
#pragma once
#include <string>
#include <toml++/toml.h>

namespace cmdbench {

// The TOML text of a node. Tables only need to be named as such; parse_text
// then reports the type mismatch.
std::string node_text(const toml::node &n);

} // namespace cmdbench

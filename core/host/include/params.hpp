// Typed parameter values: parsing, validation against a cmdbench_param
// declaration, and the canonical text form used on the control channel.
#pragma once
#include <cmdbench/plugin.h>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cmdbench {

using ParamValue = std::variant<bool, int64_t, double, std::string, std::vector<int64_t>>;

// Canonical text in TOML value syntax: true, 64, 1.5, "tcp", [64, 4096].
std::string to_text(const ParamValue &v);
// Parses TOML value syntax for the declared type (an INT is accepted where a
// DOUBLE is declared; a single INT where an INT_LIST is). Returns the error
// text ("expected an integer, got a string") or the value.
std::variant<ParamValue, std::string> parse_text(const cmdbench_param &decl,
                                                 const std::string &text);
// The same without the range check (type only), for a caller whose range
// cannot be written as a declaration (e.g. the open lower bound of `timeout`).
std::variant<ParamValue, std::string> parse_text_unchecked(const cmdbench_param &decl,
                                                           const std::string &text);
// Checks a value's type and range against the declaration and returns what
// is wrong ("must be in [1, 65535], got 0"), or nothing.
std::optional<std::string> check(const cmdbench_param &decl, const ParamValue &v);
// Names the type for messages and listings: "bool", "int", "float", "string", "int list".
const char *type_name(uint32_t param_type);
// Range as text for help: "[1, 65535]", "one of a|b|c", or "".
std::string range_text(const cmdbench_param &decl);

} // namespace cmdbench

// Typed parameter values: parsing, validation against a cmdbench_param
// declaration, and the canonical text form used on the control channel.
#pragma once
#include "cmdbench/base/expected.hpp"

#include <cmdbench/plugin.h>
#include <cstdint>
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
Expected<ParamValue> parse_text(const cmdbench_param &decl, const std::string &text);
// The same without the range check (type only), for a caller whose range
// cannot be written as a declaration (e.g. the open lower bound of `timeout`).
Expected<ParamValue> parse_text_unchecked(const cmdbench_param &decl, const std::string &text);
// The longest value text parse_text takes: lists of sizes are a few hundred
// bytes, and a server parses what any client sends.
constexpr size_t kMaxValueTextBytes = 65536;
// Fine when `text` is fit to parse as a value; else what makes it unfit: too
// long, or nested past toml_shape.hpp's bounds ("is 600000 bytes long; at
// most 65536").
Status check_value_text(const std::string &text);
// Fine when a value's type and range fit the declaration; else what is
// wrong ("must be in [1, 65535], got 0").
Status check_value(const cmdbench_param &decl, const ParamValue &v);
// Names the type for messages and listings: "bool", "int", "float", "string", "int list".
const char *type_name(uint32_t param_type);
// Range as text for help: "[1, 65535]", "one of a|b|c", or "".
std::string range_text(const cmdbench_param &decl);

} // namespace cmdbench

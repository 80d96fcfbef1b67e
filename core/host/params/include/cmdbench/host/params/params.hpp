// Typed parameter values: parsing, validation against a cmdbench_param
// declaration, and the canonical text form a run's parameters take on the
// control channel and in its results.
#pragma once
#include "cmdbench/base/expected.hpp"

#include <cmdbench/plugin.h>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace cmdbench {

using ParamValue = std::variant<bool, int64_t, double, std::string, std::vector<int64_t>>;
using ParamMap = std::map<std::string, ParamValue>;
// A run's parameters as (name, canonical text): what a client sends its
// server and what the results record.
using WireParams = std::vector<std::pair<std::string, std::string>>;

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

// `first`'s values, then `second`'s where `first` has no such name, less
// the names in `omit` (client-only ones a remote server takes by default).
WireParams params_as_text(const ParamMap &first, const ParamMap &second,
                          const std::set<std::string> &omit = {});
// The values sent for this test and transport, each parsed and checked
// against the declaring table, with every declared parameter not sent at its
// default; or why not, naming the key ("parameter 'depth' must be in ...").
Expected<ParamMap> params_from_text(const cmdbench_test *test, const cmdbench_transport *transport,
                                    const WireParams &sent);

} // namespace cmdbench

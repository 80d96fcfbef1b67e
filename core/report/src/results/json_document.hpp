// Parses JSON text into an ordered_json in time linear in the text.
// ordered_json::parse looks each key up in its object's list of keys
// before adding it, so an object of N keys (a row of many metrics) costs N^2
// comparisons: minutes for a few MB. This builds the same tree with an index
// of the keys of each object while it is read.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace cmdbench {

// What ordered_json::parse(text) returns, and the same exceptions
// (parse_error with its byte offset, out_of_range for a number out of
// double's range). A key given twice keeps its first place and its last
// value, as ordered_json::parse does.
nlohmann::ordered_json parse_json_document(const std::string &text);

} // namespace cmdbench

// runs[].expect read back from a results file (verdict.hpp), through the
// rules a scenario's `expect` follows.
#include "cmdbench/report/expect_rules.hpp"
#include "cmdbench/report/verdict.hpp"

#include <nlohmann/json.hpp>

namespace cmdbench {
namespace {

using Json = nlohmann::ordered_json;

std::string kind_of(const Json &j) {
    if (j.is_number()) return "a number";
    if (j.is_null()) return "null";
    if (j.is_object()) return "a table";
    if (j.is_array()) return "an array";
    return std::string("a ") + j.type_name();
}

// Every value is placed at `where`: the rules name the key they refuse.
ExpectEntry entry_of(const std::string &key, const Json &value, const std::string &where) {
    ExpectEntry e{key, where, where, kind_of(value), {}, value.is_object(), {}};
    if (value.is_number()) e.number = value.get<double>();
    if (value.is_object())
        for (const auto &item : value.items())
            e.table.push_back(entry_of(item.key(), item.value(), where));
    return e;
}

} // namespace

Expected<Expectations> expectations_from_json(const Json &j, const std::string &where) {
    auto read = read_expectations(entry_of("expect", j, where));
    if (!read) return unexpected(read.error());
    return std::move(read->expect);
}

} // namespace cmdbench

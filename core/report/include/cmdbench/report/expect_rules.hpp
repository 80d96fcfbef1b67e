// The one set of rules an `expect` table follows, whether a scenario gives it
// or a results file carries it back to `cmdbench compare` (docs/scenarios.md,
// "Expectations"). Each reader turns its own syntax (TOML, JSON) into
// ExpectEntry values; read_expectations checks them and builds the
// Expectations, or says what is wrong and where.
#pragma once
#include "cmdbench/base/expected.hpp"
#include "cmdbench/report/expectation.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cmdbench {

// Keys (link_fraction and metrics) one `expect` table may have: the
// built-in metrics are 7, and each key judges every row of its run, so a
// table of thousands would only multiply verdicts.
constexpr size_t kMaxExpectKeys = 64;

// A value as a reader found it.
struct ExpectEntry {
    std::string key;
    std::string key_at;   // where the key is, for messages: "a.toml:4:12", "r.json: runs[3]"
    std::string value_at; // where its value is
    std::string kind;     // what the value is, for messages: "a string", "a table"
    std::optional<double> number; // set when the value is a number (maybe not finite)
    bool is_table = false;
    std::vector<ExpectEntry> table; // its entries, in the file's order, when is_table
};

// What a reader may add to the rules, for people writing a scenario.
struct ExpectAdvice {
    // Appended to "unknown bound 'mni'": " (did you mean 'min'?)" or "".
    std::function<std::string(const std::string &key, const std::set<std::string> &known)> suggest;
    // A metric name that is surely a typo (of a built-in id): why, or "".
    std::function<std::string(const std::string &metric)> refuse_metric;
};

struct ReadExpectations {
    Expectations expect;
    std::string ratio_at; // where the first ratio bound is; "" without one
};

// `value` is the value of an `expect` key. The message of a failure starts
// with where: "<value_at or key_at>: what is wrong".
Expected<ReadExpectations> read_expectations(const ExpectEntry &value,
                                             const ExpectAdvice &advice = {});

} // namespace cmdbench

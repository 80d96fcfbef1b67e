// Large parts of a JSON document written on their own, into the text of the
// rest: a tree of every run or verdict takes about ten times their text's
// size in memory, so they never make one tree together.
#pragma once
#include "cmdbench/report/verdict.hpp"

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace cmdbench {

// Where a part written on its own goes in the document's text: KEY, a key
// at the start of a line at its depth, with PLACEHOLDER as its value. No
// string's text can start a line (newlines in strings are escaped), so a
// hostile value cannot pose as the key.
struct JsonSlot {
    const char *key;
    const char *placeholder;
    std::function<void(std::ostream &)> write;
};

// TEXT with each slot's placeholder (in the document's order; a slot not
// in TEXT is skipped) replaced by what the slot writes.
void write_with_slots(std::ostream &out, const std::string &text,
                      const std::vector<JsonSlot> &slots);

// The placeholder of `expectations.verdicts`, and its slot in a document
// dumped with an indent of 2: each verdict compact on a line of its own.
inline constexpr const char *kVerdictsPlaceholder = "cmdbench-verdicts-placeholder-7d2e";
JsonSlot verdicts_slot(const VerdictStream &verdicts);

} // namespace cmdbench

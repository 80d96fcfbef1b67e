// The `expect` table of a run or of [defaults] (docs/scenarios.md,
// "Expectations"); scenario.cpp calls these. Errors are ScenarioErrors with
// file:line:column, like every scenario key.
#pragma once
#include "cmdbench/report/expectation.hpp"

#include <set>
#include <string>
#include <toml++/toml.h>

namespace cmdbench {

// `node` is the value of an `expect` key. `ratio_at` gets the position of
// the first ratio bound (for the baseline check once every run is read).
Expectations read_expect(const toml::node &node, const std::string &path, std::string &ratio_at);

// `expect = { ... }` as one line of TOML for the effective scenario.
std::string expect_toml(const Expectations &e);

// " (did you mean 'x'?)" for the closest candidate within two edits, else "" (scenario.cpp).
std::string suggestion(const std::string &key, const std::set<std::string> &candidates);

} // namespace cmdbench

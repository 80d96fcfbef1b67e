// perftest's options as the verbs tests' keys (docs/perftest.md has the
// table), checked against the parameter table of the test this build loaded:
// an option whose key (or value) that plugin lacks is refused by name.
#pragma once
#include "cmdbench/host/params/params.hpp"
#include "perftest_options.hpp"

#include <cmdbench/plugin.h>
#include <string>

namespace cmdbench::perftest_frontend {

// "verbs-lat" or "verbs-bw".
const char *test_name(const Tool &tool);

// The keys for this side's run. Throws UsageError ("-S/--sl needs a verbs
// plugin with key sl ...") for an option the loaded test cannot take.
WireParams wire_params(const Options &o, const cmdbench_test &test);

// The keys both sides must agree on, and the option each comes from.
struct SharedKey {
    const char *key;
    const char *option; // "-s/--size"
};
const std::vector<SharedKey> &shared_keys();

// "" when the client's keys agree with ours where they must; else the
// first difference, naming the option and both values.
std::string disagreement(const WireParams &ours, const WireParams &theirs);

} // namespace cmdbench::perftest_frontend

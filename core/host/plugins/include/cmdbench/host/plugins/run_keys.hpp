// The keys a scenario's [[run]] table gives the host, whatever its test
// (docs/scenarios.md): the scenario reads them, and a plugin parameter may
// not take one of their names.
#pragma once
#include <set>
#include <string>

namespace cmdbench {

inline const std::set<std::string> kReservedRunKeys = {
    "name",    "test",  "transport", "timeout", "server", "group",      "variant", "repeat",
    "compare", "rails", "expect",    "cpus",    "numa",   "background", "pairs"};

} // namespace cmdbench

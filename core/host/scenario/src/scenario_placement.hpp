// The `cpus` and `numa` run keys of a scenario (docs/scenarios.md): read
// from a value's TOML text (file, [defaults] or --set), written back for the
// effective scenario. Errors are ScenarioErrors at the value's position.
#pragma once
#include "cmdbench/host/scenario/placement.hpp"

#include <string>

namespace cmdbench {

// `cpus = "0-3,8"`, `cpus = 3`, `cpus = { client = "0-1", server = "2-3" }`
// into `into` (a side the table leaves out is not placed). `at`: the value's
// "file:line:column".
void read_cpus_setting(const std::string &text, const std::string &at, RunPlacement &into);
// `numa = "device"`, `numa = 1`, `numa = { client = "device", server = 1 }`.
void read_numa_setting(const std::string &text, const std::string &at, RunPlacement &into);

// `cpus = ...` and `numa = ...` lines for the effective scenario ("" when unset).
std::string placement_toml(const RunPlacement &p);

} // namespace cmdbench

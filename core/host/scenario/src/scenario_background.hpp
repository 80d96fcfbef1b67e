// A run's `background` key (docs/loaded-latency.md): the traffic the host
// runs beside the measured run, as an inline table or [run.background].
#pragma once
#include "cmdbench/host/scenario/scenario.hpp"

#include <functional>
#include <toml++/toml.h>

namespace cmdbench {

// `resolve` turns the background's table (its test and transport) and its
// `params` table (null: none) into a RunSpec, with every check of a run's own.
using ResolveBackground = std::function<RunSpec(const toml::table &, const toml::table *)>;

// Reads `node` for a run that has `run_has_rails`. Throws ScenarioError
// ("file:line:column: ...").
std::shared_ptr<const Background> read_background(const toml::node &node, const std::string &path,
                                                  bool run_has_rails,
                                                  const ResolveBackground &resolve);

// `background` as an inline table, for the effective scenario.
std::string background_toml(const Background &b);

} // namespace cmdbench

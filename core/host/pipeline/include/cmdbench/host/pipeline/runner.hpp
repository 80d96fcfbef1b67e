// `cmdbench run`: the client side of every run in a scenario, against a
// server it starts on loopback or one named on the command line.
#pragma once
#include "cmdbench/host/plugins/registry.hpp"
#include "cmdbench/host/run/exit_status.hpp"
#include "cmdbench/host/run/run_options.hpp"
#include "cmdbench/host/scenario/scenario.hpp"
#include "cmdbench/report/result.hpp"

#include <atomic>
#include <string>
#include <vector>

namespace cmdbench {

int run_scenario(const Scenario &scenario, const Registry &registry, RunContext context,
                 const RunOptions &options, const std::atomic<bool> &interrupted);

} // namespace cmdbench

// `cmdbench run` in a job of two or more ranks (docs/matrix.md): every rank
// serves, the ranks pair up round by round as the scenario's [matrix]
// pattern says, and rank 0 reports the N x N results.
#pragma once
#include "cmdbench/host/matrix/job.hpp"
#include "cmdbench/host/plugins/registry.hpp"
#include "cmdbench/host/run/run_options.hpp"
#include "cmdbench/host/scenario/scenario.hpp"
#include "cmdbench/report/result.hpp"

#include <atomic>

namespace cmdbench {

// Every rank calls it with the same scenario (checked: a digest of the
// effective scenario text). Returns the exit status, the same on every rank
// (exit_status.hpp); only rank 0 writes results.
int run_matrix(Job &job, const Scenario &scenario, const Registry &registry, RunContext context,
               const RunOptions &options, const std::atomic<bool> &interrupted);

} // namespace cmdbench

// The one executor: the client side of one planned job (plan/job_plan.hpp)
// over a server link, whoever planned it (the single-pair runner or a matrix
// rank). A job on all rails at once runs one client per rail
// (rails_together.hpp).
#pragma once
#include "cmdbench/host/execute/server_link.hpp"
#include "cmdbench/host/plan/job_plan.hpp"
#include "cmdbench/host/run/run_client.hpp"

namespace cmdbench {

RunResult execute_job(ClientState &client, const RunPlan &plan, const RunJob &job,
                      ServerLink &link);

// The result of a job that never ran (an interrupt, a stuck test, a lost
// rank), `why` its error: so that the results list every job of the plan.
RunResult not_run(const RunPlan &plan, const RunJob &job, const std::string &why);

} // namespace cmdbench

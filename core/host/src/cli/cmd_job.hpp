// `cmdbench job`: the first check on a cluster. Joins the launcher's job and
// has rank 0 list every rank (node, pid) with the wire-up cost.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace cmdbench {

int cmd_job(const std::vector<std::string> &args);
void print_job_help(std::ostream &out);

} // namespace cmdbench

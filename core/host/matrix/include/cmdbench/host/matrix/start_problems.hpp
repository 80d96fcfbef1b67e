// Under a launcher every rank reads the scenario and checks its own node, so
// a problem there (a typo in the file, a node without RDMA) would be printed
// once per rank, none saying which. Rank 0 says each distinct problem once,
// with the ranks and nodes it concerns (docs/matrix.md).
#pragma once
#include "cmdbench/host/matrix/job.hpp"

#include <string>
#include <vector>

namespace cmdbench {

// Per distinct problem, in the order of its first rank, one message:
// "rank 1 (node node02): PROBLEM" or "ranks 0-3 (nodes node01,
// node02): PROBLEM". A
// problem's lines after the first follow it as they are; a leading
// "cmdbench: " of the problem is dropped. `problems[r]` is rank r's, ""
// for none; `nodes[r]` its node.
std::vector<std::string> start_problem_lines(const std::vector<std::string> &nodes,
                                             const std::vector<std::string> &problems);

// Gathers every rank's `problem` ("" = ready) to every rank; rank 0 prints
// start_problem_lines on stderr, prefixed "cmdbench: ", and when there are
// any every rank waits until it has. True when no rank has a problem.
// Throws JobError when a rank does not answer in timeout_s.
bool every_rank_ready(Job &job, const std::string &problem, double timeout_s);

} // namespace cmdbench

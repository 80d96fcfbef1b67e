// Faults the RDMA lab's checks inject, behind a link-time seam: the shipped
// plugin links faults_none.cpp (no fault, ever), and the lab's copy of the
// plugin (tests/lab/verbs-faults) links one that reads them from the
// environment. Each is asked on the server's main thread.
#ifndef CMDBENCH_VERBS_FAULTS_HPP
#define CMDBENCH_VERBS_FAULTS_HPP

#include "run/verbs_run.hpp"

#include <cstdint>
#include <optional>

namespace cmdbench::verbs::faults {

// Atomics: a value to write into QP 0's target once before the first
// atomic, so that verify has a wrong operand to catch.
std::optional<uint64_t> corrupt_target(const Run &run);

// UD latency: QP 0's message (numbered from 0 over the run) to leave
// unanswered, as if the answer were lost.
std::optional<uint64_t> unanswered_message(const Run &run);

// Latency, after each size's barrier: sleeps before the first answer, so
// that a check can show the start round trip keeps the wait out of the
// samples.
void start_late(const Run &run);

} // namespace cmdbench::verbs::faults

#endif

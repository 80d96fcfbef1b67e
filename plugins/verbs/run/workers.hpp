// The threads of one measured step: QPs spread over `threads`, the host's
// cancellation watched from the calling thread, the first real failure
// rethrown after every thread was joined.
#ifndef CMDBENCH_VERBS_WORKERS_HPP
#define CMDBENCH_VERBS_WORKERS_HPP

#include "run/verbs_run.hpp"

#include <functional>

namespace cmdbench::verbs {

// Runs body(t) for t in [0, threads) on its own thread, or body(0) on the
// calling thread when there is one and no `meanwhile`. `meanwhile`, when
// given, runs on the calling thread while they work (the server's control
// exchange); its failure stops the workers too.
void run_workers(Run &run, int threads, const std::function<void(int)> &body,
                 const std::function<void()> &meanwhile = nullptr);

} // namespace cmdbench::verbs

#endif

// rstream's server fork mode: after each accept the
// server forks; the child runs that connection's tests and exits, the parent
// runs none, waits for the child, then closes its own copy of the socket.
#ifndef CMDBENCH_STREAM_FORK_CHILD_HPP
#define CMDBENCH_STREAM_FORK_CHILD_HPP

#include "stream_io.hpp"

#include <functional>

namespace cmdbench::stream {

// Runs `body` in a forked child and returns in the parent once the child has
// exited. The child's failure (a RunError's status and message) is thrown
// again in the parent, so the run fails as if the parent had run the tests.
// The parent's wait is bounded by the run's deadline (plus a short grace for
// the child to report its own timeout), after which the child is killed.
void run_in_child(const Run &run, const std::function<void()> &body);

} // namespace cmdbench::stream

#endif

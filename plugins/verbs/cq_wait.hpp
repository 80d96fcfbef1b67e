// Completions of one thread's QPs, busy-polled or waited for through the
// completion channels (ibv_req_notify_cq, then poll() on the channel fds),
// every wait bounded by the run's deadline.
#ifndef CMDBENCH_VERBS_CQ_WAIT_HPP
#define CMDBENCH_VERBS_CQ_WAIT_HPP

#include "conn.hpp"

namespace verbs {

// Non-blocking: up to `max` completions of `conn` into wc; a completion in
// error fails the run (naming its status and opcode).
int poll_cq(Conn &conn, ibv_wc *wc, int max, const char *what);

// Blocks (busy poll or event wait per `mode`) until `conn` has completions,
// then returns them as poll_cq does.
int wait_cq(Conn &conn, WaitMode mode, ibv_wc *wc, int max, const Stopper &stop, const char *what);

// Event mode, when none of `conns` had a completion: arms the CQs not yet
// armed and returns at once (the caller polls again: nothing is lost), or,
// all armed, sleeps until a completion channel fires (at most 100 ms) and
// consumes its events. Checks the deadline.
void wait_for_event(const std::vector<Conn *> &conns, const Stopper &stop, const char *what);
void wait_for_event(Conn *const *conns, size_t count, const Stopper &stop, const char *what);

} // namespace verbs

#endif

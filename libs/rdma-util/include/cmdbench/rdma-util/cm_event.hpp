// The rdma_cm event channel, non-blocking so that every wait for an event is
// bounded (by the run's deadline, or by a loop that must notice its end).
#ifndef CMDBENCH_RDMA_UTIL_CM_EVENT_HPP
#define CMDBENCH_RDMA_UTIL_CM_EVENT_HPP

#include <rdma/rdma_cma.h>
#include <string>

namespace cmdbench::rdma {

// Why open_event_channel failed: which step, the call that failed (for
// messages) and its errno. A caller decides by `step`, never by the text.
struct ChannelFailure {
    // Create: rdma_create_event_channel, which fails without an rdma_cm
    // device node (no RDMA device here). NonBlocking: setting O_NONBLOCK.
    enum class Step { Create, NonBlocking } step = Step::Create;
    std::string call;
    int err = 0;
};

// A new non-blocking event channel, or nullptr with `failure` set.
rdma_event_channel *open_event_channel(ChannelFailure &failure);

// Waits at most timeout_ms for the channel's next event: 1 with *event set
// (ack it with rdma_ack_cm_event), 0 when none came, -1 with errno set when
// rdma_get_cm_event or poll failed.
int wait_cm_event(rdma_event_channel *channel, int timeout_ms, rdma_cm_event **event);

} // namespace cmdbench::rdma

#endif

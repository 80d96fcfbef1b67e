// The bounded rdma_cm event wait (see cm_event.hpp).
#include "cmdbench/rdma-util/cm_event.hpp"

#include <cerrno>
#include <fcntl.h>
#include <poll.h>

namespace cmdbench::rdma {
namespace {

// 1: got one; 0: none queued; -1: failed.
int take_event(rdma_event_channel *channel, rdma_cm_event **event) {
    if (rdma_get_cm_event(channel, event) == 0) return 1;
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
}

} // namespace

rdma_event_channel *open_event_channel(ChannelFailure &failure) {
    rdma_event_channel *channel = rdma_create_event_channel();
    if (!channel) {
        failure = {ChannelFailure::Step::Create, "rdma_create_event_channel", errno};
        return nullptr;
    }
    const int flags = fcntl(channel->fd, F_GETFL);
    if (flags < 0 || fcntl(channel->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        failure = {ChannelFailure::Step::NonBlocking,
                   "fcntl O_NONBLOCK on the rdma_cm event channel", errno};
        rdma_destroy_event_channel(channel);
        return nullptr;
    }
    return channel;
}

int wait_cm_event(rdma_event_channel *channel, int timeout_ms, rdma_cm_event **event) {
    const int now = take_event(channel, event);
    if (now != 0) return now;
    pollfd p{channel->fd, POLLIN, 0};
    const int n = poll(&p, 1, timeout_ms);
    if (n < 0) return errno == EINTR ? 0 : -1;
    return n == 0 ? 0 : take_event(channel, event);
}

} // namespace cmdbench::rdma

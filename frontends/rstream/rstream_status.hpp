// rstream's exit status for a failed run.
#ifndef CMDBENCH_RSTREAM_STATUS_HPP
#define CMDBENCH_RSTREAM_STATUS_HPP

#include <string>

namespace cmdbench::rstream_frontend {

// 255 (a failed call), or, for a -T a readiness wait that reported an error
// or hang-up, rstream's poll bits: 8 (POLLERR), 16 (POLLHUP), 24 (both). The
// stream plugin names the bits at the end of its message:
// "rrecv: Connection reset by peer (poll revents: POLLERR|POLLHUP)".
int failure_status(const std::string &error);

} // namespace cmdbench::rstream_frontend

#endif

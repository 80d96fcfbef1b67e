// Host services hist_send / hist_recv (ABI 1.2): one histogram from one peer
// to the other as a single exchange over the control channel, in the
// compact wire form of histogram_wire.hpp.
#pragma once
#include "cmdbench/host/plugins/host_services.hpp"

namespace cmdbench {

int hist_send(cmdbench_ctx *ctx, const cmdbench_hist *hist);
int hist_recv(cmdbench_ctx *ctx, cmdbench_hist **out);

} // namespace cmdbench

// The data-path hooks an fd-based transport may leave NULL from ABI 1.2:
// the libc call on the handle as a file descriptor.
#pragma once
#include <cmdbench/plugin.h>

namespace cmdbench {

// The name of the first data-path hook (socket ... close) that is NULL, or
// nullptr when all fourteen are set.
const char *first_missing_socket_hook(const cmdbench_transport &t);

// Sets every NULL data-path hook of `t` to its libc fallback, so that tests
// and the host always call through a set pointer and pay nothing per call.
void fill_libc_socket_hooks(cmdbench_transport &t);

} // namespace cmdbench

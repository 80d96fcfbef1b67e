// ABI 1.2 sock_ops: tests call a transport's plain data-path hooks with a
// handle alone; the host routes those calls to the transport's sock_ops
// hooks together with the pointer the transport gave that socket.
//
// The pointer is kept in a process-wide table indexed by the handle (two
// loads per call, no search, no lock), which is why a sock_ops transport's
// handles must be unique in the process while open.
//
// Transports are written with the plain hooks (docs/plugin-abi.md, "One
// model"); this routing is kept for plugins that set sock_ops while the ABI
// is 1.x, and goes with it in 2.0.
#pragma once
#include "cmdbench/base/expected.hpp"

#include <cmdbench/plugin.h>
#include <memory>
#include <string>

namespace cmdbench {

// Points the plain hooks of `t` (already complete: NULL ones filled with
// libc) at the host's routers for every hook `ops` has, and socket, accept
// and close always (they keep the table). `ops` must outlive the routing.
// Returns the routing's lifetime (release it when the plugin is unloaded),
// or why not when no routing is left (kMaxRoutedTransports).
Expected<std::shared_ptr<void>> route_sock_ops(cmdbench_transport &t, const cmdbench_sock_ops &ops);

// How many sock_ops transports one process can have loaded at once: socket()
// and poll() carry no handle that names the transport, so each loaded one
// gets its own compiled entry points.
constexpr size_t kMaxRoutedTransports = 32;

} // namespace cmdbench

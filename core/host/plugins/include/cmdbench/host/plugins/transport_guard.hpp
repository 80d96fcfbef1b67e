// Transport hooks that fail without set_error still get a message naming the
// transport and the hook, instead of the test's "failed without saying why".
#pragma once
#include "cmdbench/host/plugins/host_services.hpp"

#include <cmdbench/plugin.h>
#include <optional>
#include <string>

namespace cmdbench {

// A copy of `real` whose ctx-taking hooks (configure, resolve, local_node)
// go through the host: a failure that left ctx's error unchanged records
// "transport 'tcp' hook 'configure' failed[: <errno text>]" (errno only when
// the hook set it). The run's ctx must point at `real` (ctx->transport).
cmdbench_transport guarded_transport(const cmdbench_transport &real);

// Calls the transport's probe hook the same way; the message when it failed
// (or skipped) without one.
int guarded_probe(const cmdbench_transport &real, cmdbench_ctx *ctx);

} // namespace cmdbench

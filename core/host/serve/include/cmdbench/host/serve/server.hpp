// `cmdbench serve`: runs the server role of whatever runs clients request.
#pragma once
#include "cmdbench/host/plugins/registry.hpp"
#include "cmdbench/host/run/control_port.hpp"
#include "cmdbench/host/serve/serve_limits.hpp"

#include <atomic>
#include <cstdint>
#include <string>

namespace cmdbench {

struct ServeOptions {
    std::string bind;                    // empty = any address
    uint16_t port = kDefaultControlPort; // 0 = ephemeral
    bool once = false;                   // exit after the first client session
    int ready_fd = -1;                   // write "<port>\n" here once listening
    int idle_timeout_s = 600;            // a silent client session is dropped after this
    bool quiet = false;                  // no result tables for server-side rows
    int max_clients = 1;                 // sessions at once (not with --once)

    // Who may use the server and what they may ask of it (docs/security.md);
    // `cmdbench serve` listens on loopback unless --bind says otherwise.
    std::string token; // clients must prove they hold it (control_auth.hpp); "" = none
    ServeLimits limits;
};

// Returns the process exit code.
int serve(const Registry &registry, const ServeOptions &options,
          const std::atomic<bool> &interrupted);

} // namespace cmdbench

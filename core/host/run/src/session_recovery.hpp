// What the client says when its local server died under a run, so the run's
// error names the real cause instead of a closed control channel.
#pragma once
#include "cmdbench/host/run/server_process.hpp"

#include <string>

namespace cmdbench {

// "the local server crashed (SIGSEGV, segmentation fault) during run 'x':
// plugin 'p' crashed (...) in test 't', hook run, run 'x'", or empty while
// the server still runs after wait_ms.
std::string local_server_death(ServerProcess &server, const std::string &run, int wait_ms);

// The line printed before the next run starts a fresh local server.
void announce_restart(const std::string &why, const std::string &next_run);

} // namespace cmdbench

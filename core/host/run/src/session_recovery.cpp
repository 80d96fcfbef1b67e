#include "session_recovery.hpp"

#include <cstdio>

namespace cmdbench {

std::string local_server_death(ServerProcess &server, const std::string &run, int wait_ms) {
    auto end = server.exited(wait_ms);
    if (!end) return {};
    std::string text = "the local server " + end->how + " during " + run;
    if (!end->said.empty()) text += ": " + end->said;
    return text;
}

void announce_restart(const std::string &why, const std::string &next_run) {
    std::fprintf(stderr, "cmdbench: %s; starting a new local server for %s\n", why.c_str(),
                 next_run.c_str());
}

} // namespace cmdbench

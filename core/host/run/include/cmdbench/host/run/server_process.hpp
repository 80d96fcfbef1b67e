// The server side that `cmdbench run` starts by itself on loopback when no
// server is named: a child `cmdbench serve --once` process.
#pragma once
#include "cmdbench/control/unique_fd.hpp"
#include "cmdbench/host/run/child_process.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace cmdbench {

// How long the server serves: `run` wants one session (--once); a rank of
// a matrix serves its partners one after another, up to max_clients at
// once, until stop().
struct ServerServing {
    bool once = true;
    int max_clients = 1;
};

class ServerProcess {
  public:
    // Starts `<exe> serve --bind NODE --port 0 --once --quiet --no-limits` with
    // the given plugin files and waits (bounded) for it to report its port.
    // NODE is a local address (local_node.hpp). The server gets a fresh token
    // through its environment (not argv, which other users can read), so no
    // one else on this machine can use its session. Throws std::runtime_error.
    ServerProcess(const std::string &exe, const std::vector<std::string> &plugin_files,
                  const std::string &node, ServerServing serving = {});
    ~ServerProcess(); // stop(): never leaves the child behind
    ServerProcess(const ServerProcess &) = delete;
    ServerProcess &operator=(const ServerProcess &) = delete;

    uint16_t port() const { return port_; }
    const std::string &token() const { return token_; }
    pid_t pid() const { return child_.pid(); }
    // Waits up to timeout_ms for the child to exit, then kills it.
    void stop(int timeout_ms = 3000);
    // Whether the child has ended, waiting up to wait_ms for it: how it
    // ended ("crashed (SIGSEGV, segmentation fault)", "exited with status
    // 1") and the crash line it wrote, if any (server_exit.cpp).
    struct Exit {
        std::string how, said;
    };
    std::optional<Exit> exited(int wait_ms);

  private:
    ChildProcess child_;
    uint16_t port_ = 0;
    std::string token_;
    UniqueFd crash_fd_; // the child's crash report (crash_report.hpp) comes here
    std::optional<Exit> exit_;
    bool once_ = true; // ends by itself after its session; else stop() asks it to
};

// The running executable's path (for re-executing ourselves).
std::string self_executable();

} // namespace cmdbench

#include "cmdbench/host/run/server_process.hpp"

#include "cmdbench/control/control_auth.hpp"
#include "cmdbench/host/run/token_source.hpp"
#include "cmdbench/host/scenario/placement.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cmdbench {

namespace {

// Our environment with CMDBENCH_TOKEN set to `token`, built before fork()
// (after it, in a process that may have threads, only exec is safe).
std::vector<std::string> environment_with_token(const std::string &token) {
    const std::string prefix = std::string(kTokenEnv) + "=";
    std::vector<std::string> env;
    for (char **e = environ; *e; ++e)
        if (std::strncmp(*e, prefix.c_str(), prefix.size()) != 0) env.emplace_back(*e);
    env.push_back(prefix + token);
    return env;
}

} // namespace

std::string self_executable() {
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        throw std::runtime_error("cannot find the cmdbench executable: " +
                                 std::string(strerror(errno)));
    return std::string(buf, size_t(n));
}

namespace {

// In the server, before exec (async-signal-safe calls only).
void prepare_server_child() {
    // The server must not outlive us, even if we are killed.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    // Ctrl-C and a terminal's hang-up go to the whole foreground group: let
    // the client decide when the server stops, so its results come home first.
    signal(SIGINT, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    // A server started while the client side of a run is placed must
    // not inherit that placement: its side is its own (`cpus`, `numa`).
    unplace_child();
    fcntl(4, F_SETFL, 0); // the crash line is written blocking
}

std::vector<std::string> serve_args(const std::string &exe, const std::string &node,
                                    ServerServing serving,
                                    const std::vector<std::string> &plugin_files) {
    std::vector<std::string> args = {exe,          "serve", "--bind",     node,
                                     "--port",     "0",     "--quiet",    "--no-default-plugins",
                                     "--ready-fd", "3",     "--no-limits"};
    if (serving.once)
        args.push_back("--once");
    else
        args.insert(args.end(), {"--max-clients", std::to_string(serving.max_clients)});
    // Its only client is us: never dropped as idle while other servers run.
    args.insert(args.end(), {"--idle-timeout", "86400"});
    for (const auto &f : plugin_files) {
        args.push_back("--plugin-dir");
        args.push_back(f);
    }
    return args;
}

// The port line the server writes on its ready pipe, waited for up to 10 s;
// "" when it ended or never said.
std::string read_ready_line(const UniqueFd &ready) {
    std::string got;
    pollfd p{ready.get(), POLLIN, 0};
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (got.find('\n') == std::string::npos) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                              deadline - std::chrono::steady_clock::now())
                              .count();
        if (left <= 0 || poll(&p, 1, int(left)) <= 0) break;
        char c[16];
        const ssize_t n = read(ready.get(), c, sizeof c);
        if (n <= 0) break;
        got.append(c, size_t(n));
    }
    return got;
}

} // namespace

ServerProcess::ServerProcess(const std::string &exe, const std::vector<std::string> &plugin_files,
                             const std::string &node, ServerServing serving)
    : once_(serving.once) {
    Pipe ready = make_pipe(O_CLOEXEC);
    // The child's crash line (crash_report.hpp) comes on a pipe of its own.
    Pipe crash = make_pipe(O_CLOEXEC | O_NONBLOCK);
    token_ = control::random_token();
    ChildSpec spec;
    spec.argv = serve_args(exe, node, serving, plugin_files);
    for (auto &e : environment_with_token(token_))
        if (e.rfind("CMDBENCH_CRASH_FD=", 0) != 0) spec.env.push_back(e);
    spec.env.push_back("CMDBENCH_CRASH_FD=4");
    spec.fds = {{3, ready.write.get()}, {4, crash.write.get()}};
    spec.in_child = prepare_server_child;
    child_ = ChildProcess(spec);
    ready.write.reset();
    crash.write.reset();
    crash_fd_ = std::move(crash.read);
    const std::string got = read_ready_line(ready.read);
    char *end = nullptr;
    const long port = std::strtol(got.c_str(), &end, 10);
    if (got.empty() || port <= 0 || port > 65535) {
        stop(500);
        throw std::runtime_error("the local server process did not start (see its message above)");
    }
    port_ = uint16_t(port);
}

void ServerProcess::stop(int timeout_ms) {
    crash_fd_.reset();
    // A server that serves on (not --once) has nothing left to finish when
    // its owner stops it; its session children end with it (PDEATHSIG).
    // SIGKILL rather than SIGTERM, which it would announce on stderr.
    if (!once_) child_.signal(SIGKILL);
    child_.stop(timeout_ms);
}

ServerProcess::~ServerProcess() {
    stop();
}

} // namespace cmdbench

#include "run/server_process.hpp"

#include "cmdbench/control/control_auth.hpp"
#include "cmdbench/host/placement.hpp"
#include "cli/token_source.hpp"

#include <cerrno>
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

ServerProcess::ServerProcess(const std::string &exe, const std::vector<std::string> &plugin_files,
                             const std::string &node, ServerServing serving)
    : once_(serving.once) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("pipe: ") + strerror(errno));
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
    token_ = control::random_token();
    // A second pipe for the child's crash line, and the environment naming it
    // (built before fork: the child may only exec).
    int crash[2];
    if (pipe2(crash, O_CLOEXEC | O_NONBLOCK) != 0) {
        int err = errno;
        close(fds[0]);
        close(fds[1]);
        throw std::runtime_error(std::string("pipe: ") + strerror(err));
    }
    std::vector<std::string> env_text;
    for (auto &e : environment_with_token(token_))
        if (e.rfind("CMDBENCH_CRASH_FD=", 0) != 0) env_text.push_back(e);
    env_text.push_back("CMDBENCH_CRASH_FD=4");
    std::vector<char *> envp;
    for (auto &e : env_text)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    pid_ = fork();
    if (pid_ < 0) {
        int err = errno;
        for (int fd : {fds[0], fds[1], crash[0], crash[1]})
            close(fd);
        throw std::runtime_error(std::string("fork: ") + strerror(err));
    }
    if (pid_ == 0) {
        // The server must not outlive us, even if we are killed.
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        // Ctrl-C goes to the whole foreground group: let the client decide
        // when the server stops, so its results come home first.
        signal(SIGINT, SIG_IGN);
        // A server started while the client side of a run is placed must
        // not inherit that placement: its side is its own (`cpus`, `numa`).
        unplace_child();
        // Out of the way of 3 and 4 first, then into place (dup2 clears
        // close-on-exec on the copy).
        int ready = fcntl(fds[1], F_DUPFD_CLOEXEC, 10);
        int crashed = fcntl(crash[1], F_DUPFD_CLOEXEC, 10);
        dup2(ready, 3);
        dup2(crashed, 4);
        fcntl(4, F_SETFL, 0); // blocking in the child
        std::vector<char *> argv;
        for (auto &a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        execve(exe.c_str(), argv.data(), envp.data());
        _exit(127);
    }
    close(fds[1]);
    close(crash[1]);
    crash_fd_ = crash[0];
    std::string got;
    pollfd p{fds[0], POLLIN, 0};
    int waited = 0;
    while (got.find('\n') == std::string::npos && waited < 10000) {
        int r = poll(&p, 1, 100);
        waited += 100;
        if (r > 0) {
            char c[16];
            ssize_t n = read(fds[0], c, sizeof c);
            if (n <= 0) break;
            got.append(c, size_t(n));
        }
    }
    close(fds[0]);
    char *end = nullptr;
    long port = std::strtol(got.c_str(), &end, 10);
    if (got.empty() || port <= 0 || port > 65535) {
        stop(500);
        throw std::runtime_error("the local server process did not start (see its message above)");
    }
    port_ = uint16_t(port);
}

void ServerProcess::stop(int timeout_ms) {
    if (crash_fd_ >= 0) close(crash_fd_);
    crash_fd_ = -1;
    if (pid_ <= 0) return;
    // A server that serves on (not --once) has nothing left to finish when
    // its owner stops it; its session children end with it (PDEATHSIG).
    // SIGKILL rather than SIGTERM, which it would announce on stderr.
    if (!once_) kill(pid_, SIGKILL);
    for (int waited = 0; waited <= timeout_ms; waited += 20) {
        if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
            pid_ = -1;
            return;
        }
        usleep(20000);
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
}

ServerProcess::~ServerProcess() {
    stop();
}

} // namespace cmdbench

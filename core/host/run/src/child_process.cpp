#include "cmdbench/host/run/child_process.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cmdbench {
namespace {

// Everything the child needs, built before fork(): after it, in a process
// that may have threads, the child may not allocate.
struct ExecArgs {
    std::vector<std::string> text;
    std::vector<char *> argv, envp;
    explicit ExecArgs(const ChildSpec &spec) : text(spec.argv) {
        text.insert(text.end(), spec.env.begin(), spec.env.end());
        for (size_t i = 0; i < text.size(); ++i) {
            (i < spec.argv.size() ? argv : envp).push_back(text[i].data());
            if (i + 1 == spec.argv.size()) argv.push_back(nullptr);
        }
        envp.push_back(nullptr);
    }
};

[[noreturn]] void exec_child(const ChildSpec &spec, ExecArgs &args) {
    // Out of the way of every target first, then into place, so that one
    // placement cannot overwrite a descriptor another still needs.
    int moved[16];
    const size_t n = spec.fds.size() < 16 ? spec.fds.size() : 16;
    for (size_t i = 0; i < n; ++i)
        moved[i] = fcntl(spec.fds[i].second, F_DUPFD_CLOEXEC, 64);
    for (size_t i = 0; i < n; ++i)
        dup2(moved[i], spec.fds[i].first);
    if (spec.in_child) spec.in_child();
    execve(args.argv[0], args.argv.data(), args.envp.data());
    _exit(127);
}

} // namespace

ChildProcess::ChildProcess(const ChildSpec &spec) {
    if (spec.argv.empty() || spec.fds.size() > 16)
        throw std::invalid_argument("ChildProcess: no argv, or more than 16 descriptors");
    ExecArgs args(spec);
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error(std::string("fork: ") + strerror(errno));
    if (pid_ == 0) exec_child(spec, args);
    // Lets wait_for sleep until the child ends instead of polling for it.
    pidfd_.reset(int(syscall(SYS_pidfd_open, pid_, 0)));
}

ChildProcess::ChildProcess(ChildProcess &&other) noexcept
    : pid_(std::exchange(other.pid_, -1)), pidfd_(std::move(other.pidfd_)) {}

ChildProcess &ChildProcess::operator=(ChildProcess &&other) noexcept {
    if (this != &other) {
        stop(0);
        pid_ = std::exchange(other.pid_, -1);
        pidfd_ = std::move(other.pidfd_);
    }
    return *this;
}

std::optional<int> ChildProcess::wait_for(int wait_ms) {
    if (pid_ <= 0) return std::nullopt;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(wait_ms);
    for (;;) {
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            pidfd_.reset();
            return status;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                              deadline - std::chrono::steady_clock::now())
                              .count();
        if (left <= 0) return std::nullopt;
        if (pidfd_) {
            pollfd p{pidfd_.get(), POLLIN, 0};
            poll(&p, 1, int(left));
        } else {
            usleep(useconds_t(left < 20 ? left : 20) * 1000); // kernels without pidfd_open
        }
    }
}

void ChildProcess::signal(int sig) const {
    if (pid_ > 0) kill(pid_, sig);
}

void ChildProcess::stop(int timeout_ms) {
    if (pid_ <= 0) return;
    if (wait_for(timeout_ms)) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
    pidfd_.reset();
}

} // namespace cmdbench

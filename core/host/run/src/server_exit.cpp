// How the local server process ended, for the client's message about it.
#include "cmdbench/host/run/crash_report.hpp"
#include "cmdbench/host/run/server_process.hpp"

#include <sys/wait.h>
#include <unistd.h>

namespace cmdbench {
namespace {

std::string how_it_ended(int status) {
    if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
    int sig = WTERMSIG(status);
    std::string name = crash_report::signal_name(sig);
    std::string meaning = crash_report::signal_meaning(sig);
    if (sig == SIGKILL || sig == SIGTERM || sig == SIGINT || sig == SIGHUP)
        return "was killed (" + name + ")";
    return "crashed (" + name + (meaning.empty() ? "" : ", " + meaning) + ")";
}

// The crash line the child wrote to its crash pipe, without its prefix.
std::string crash_line(int fd) {
    std::string text;
    char buf[512];
    ssize_t n;
    while (fd >= 0 && (n = read(fd, buf, sizeof buf)) > 0)
        text.append(buf, size_t(n));
    while (!text.empty() && (text.front() == '\n' || text.front() == ' '))
        text.erase(0, 1);
    while (!text.empty() && text.back() == '\n')
        text.pop_back();
    const std::string prefix = "cmdbench serve: ";
    if (text.compare(0, prefix.size(), prefix) == 0) text.erase(0, prefix.size());
    return text;
}

} // namespace

std::optional<ServerProcess::Exit> ServerProcess::exited(int wait_ms) {
    if (exit_) return exit_;
    if (!child_.running()) return std::nullopt;
    if (const auto status = child_.wait_for(wait_ms))
        exit_ = Exit{how_it_ended(*status), crash_line(crash_fd_.get())};
    return exit_;
}

} // namespace cmdbench

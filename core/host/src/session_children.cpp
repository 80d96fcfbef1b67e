#include "session_children.hpp"

#include "crash_report.hpp"
#include "serve_clients.hpp"

#include <csignal>
#include <ctime>
#include <sys/wait.h>
#include <thread>

namespace cmdbench {
namespace {

std::string utc_text(std::chrono::system_clock::time_point t) {
    const std::time_t secs = std::chrono::system_clock::to_time_t(t);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[40];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return buf;
}

// "SIGSEGV, segmentation fault": the same names the crash reports use.
std::string signal_text(int sig) {
    const std::string meaning = crash_report::signal_meaning(sig);
    return crash_report::signal_name(sig) + (meaning.empty() ? "" : ", " + meaning);
}

} // namespace

void SessionChildren::add(pid_t pid, const std::string &peer) {
    children_[pid] = {peer, std::chrono::system_clock::now()};
}

void SessionChildren::ended(pid_t pid, int status) {
    auto it = children_.find(pid);
    if (it == children_.end()) return;
    if (WIFSIGNALED(status))
        serve_log("the session with " + it->second.peer + " died of a signal (" +
                  signal_text(WTERMSIG(status)) + ")");
    children_.erase(it);
}

void SessionChildren::reap() {
    int status = 0;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
        ended(pid, status);
}

std::string SessionChildren::busy_text(int max_clients) const {
    // The oldest session names the server's business; the rest are counted.
    auto oldest = children_.begin();
    for (auto it = children_.begin(); it != children_.end(); ++it)
        if (it->second.since < oldest->second.since) oldest = it;
    std::string text = "server busy";
    if (oldest != children_.end()) {
        text += " with " + oldest->second.peer + " since " + utc_text(oldest->second.since);
        if (children_.size() > 1)
            text += " and " + std::to_string(children_.size() - 1) + " other client" +
                    (children_.size() > 2 ? "s" : "");
    }
    return text + " (" + std::to_string(children_.size()) + " of " + std::to_string(max_clients) +
           " clients); try again later, or start `cmdbench serve` with a larger --max-clients";
}

void SessionChildren::stop_all(int grace_ms) {
    for (const auto &[pid, child] : children_)
        kill(pid, SIGTERM);
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(grace_ms);
    while (!children_.empty() && std::chrono::steady_clock::now() < end) {
        reap();
        if (!children_.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    for (const auto &[pid, child] : children_) {
        serve_log("the session with " + child.peer + " did not stop in time: killed");
        kill(pid, SIGKILL);
    }
    while (!children_.empty()) {
        int status = 0;
        const pid_t pid = waitpid(children_.begin()->first, &status, 0);
        children_.erase(pid > 0 ? pid : children_.begin()->first);
    }
}

} // namespace cmdbench

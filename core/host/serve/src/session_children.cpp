#include "session_children.hpp"

#include "cmdbench/host/run/crash_report.hpp"
#include "serve_clients.hpp"

#include <csignal>
#include <sys/wait.h>
#include <thread>

namespace cmdbench {
namespace {

// "SIGSEGV, segmentation fault": the same names the crash reports use.
std::string signal_text(int sig) {
    const std::string meaning = crash_report::signal_meaning(sig);
    return crash_report::signal_name(sig) + (meaning.empty() ? "" : ", " + meaning);
}

} // namespace

void SessionChildren::add(pid_t pid, const std::string &peer, size_t entry) {
    children_[pid] = {peer, entry, std::chrono::steady_clock::now()};
}

void SessionChildren::ended(pid_t pid, int status) {
    auto it = children_.find(pid);
    if (it == children_.end()) return;
    if (WIFSIGNALED(status) && !it->second.dropped)
        serve_log("the session with " + it->second.peer + " died of a signal (" +
                  signal_text(WTERMSIG(status)) + ")");
    table_.remove(it->second.entry);
    children_.erase(it);
}

void SessionChildren::reap() {
    int status = 0;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
        ended(pid, status);
}

std::optional<pid_t> SessionChildren::oldest_handshake(bool silent,
                                                       std::chrono::milliseconds min_age) const {
    const auto born_by = std::chrono::steady_clock::now() - min_age;
    std::optional<pid_t> oldest;
    std::chrono::steady_clock::time_point since{};
    for (const auto &[pid, c] : children_) {
        if (c.dropped || !table_.in_handshake(c.entry) || table_.silent(c.entry) != silent ||
            c.since > born_by)
            continue;
        if (!oldest || c.since < since) {
            oldest = pid;
            since = c.since;
        }
    }
    return oldest;
}

std::vector<pid_t> SessionChildren::handshakes_older_than(std::chrono::milliseconds limit) const {
    const auto now = std::chrono::steady_clock::now();
    std::vector<pid_t> out;
    for (const auto &[pid, c] : children_)
        if (!c.dropped && now - c.since > limit && table_.in_handshake(c.entry)) out.push_back(pid);
    return out;
}

bool SessionChildren::drop_handshake(pid_t pid) {
    auto it = children_.find(pid);
    if (it == children_.end() || !table_.evict(it->second.entry)) return false;
    it->second.dropped = true;
    kill(pid, SIGKILL);
    return true;
}

std::string SessionChildren::peer(pid_t pid) const {
    auto it = children_.find(pid);
    return it == children_.end() ? "" : it->second.peer;
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
        auto it = children_.find(pid > 0 ? pid : children_.begin()->first);
        table_.remove(it->second.entry);
        children_.erase(it);
    }
}

} // namespace cmdbench

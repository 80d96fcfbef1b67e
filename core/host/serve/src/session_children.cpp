#include "session_children.hpp"

#include "cmdbench/control/host_port.hpp"
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

// "10.0.0.2:51000" -> "10.0.0.2", "[::1]:51000" -> "::1".
std::string host_of(const std::string &peer) {
    const Expected<HostPort> hp = parse_host_port(peer, 1);
    return hp ? hp->host : peer;
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

std::optional<pid_t>
SessionChildren::handshake_to_drop(const std::string &newcomer,
                                   std::chrono::milliseconds same_host_age) const {
    std::map<std::string, size_t> per_host;
    for (const auto &[pid, c] : children_)
        if (!c.dropped && table_.in_handshake(c.entry)) ++per_host[host_of(c.peer)];
    std::optional<pid_t> victim;
    size_t most = 0;
    std::chrono::steady_clock::time_point oldest{};
    for (const auto &[pid, c] : children_) {
        if (c.dropped || !table_.in_handshake(c.entry)) continue;
        const size_t n = per_host[host_of(c.peer)];
        if (!victim || n > most || (n == most && c.since < oldest)) {
            victim = pid;
            most = n;
            oldest = c.since;
        }
    }
    if (victim) {
        const Child &c = children_.at(*victim);
        if (host_of(c.peer) == host_of(newcomer) &&
            std::chrono::steady_clock::now() - c.since < same_host_age)
            return std::nullopt;
    }
    return victim;
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

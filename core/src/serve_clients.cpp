#include "serve_clients.hpp"

#include "busy_refusals.hpp"
#include "session_children.hpp"
#include "test_executor.hpp"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sys/prctl.h>
#include <thread>
#include <unistd.h>

namespace cmdbench {
namespace {

using control::Channel;
using control::ControlError;

// Short accept waits, so Ctrl-C, ended sessions and refused clients are
// looked after promptly.
constexpr int kAcceptPollMs = 200;
// A session told to stop ends its run within the test's grace period.
constexpr int kStopGraceMs = int(kGraceSeconds * 1000) + 3000;

// One line per second at most about turned-away clients, so a flood of
// connections cannot flood the log too.
class RefusalLog {
  public:
    explicit RefusalLog(bool quiet) : quiet_(quiet) {}
    void note(const std::string &peer, size_t active, int max_clients) {
        if (quiet_) return;
        const auto now = std::chrono::steady_clock::now();
        if (now - last_ < std::chrono::seconds(1)) {
            ++suppressed_;
            return;
        }
        std::string line = "turned away " + peer + ": busy (" + std::to_string(active) + " of " +
                           std::to_string(max_clients) + " clients)";
        if (suppressed_)
            line += "; " + std::to_string(suppressed_) + " more turned away in the last second";
        serve_log(line);
        last_ = now;
        suppressed_ = 0;
    }

  private:
    bool quiet_;
    std::chrono::steady_clock::time_point last_{};
    size_t suppressed_ = 0;
};

// In the child: the session runs with nothing of the parent's listening
// state, and ends with the parent.
[[noreturn]] void run_child(pid_t parent, control::Listener &listener, BusyRefusals &refusals,
                            Channel &ch, const SessionBody &session) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(1);
    // Ctrl-C reaches the whole process group: the parent decides, and stops
    // its sessions with SIGTERM.
    signal(SIGINT, SIG_IGN);
    listener.close();
    refusals.close_all();
    const int code = session(ch);
    std::cout.flush();
    std::fflush(nullptr);
    _exit(code);
}

// The next connection within a short wait, if any.
std::optional<Channel> next_client(control::Listener &listener) {
    try {
        return listener.accept_within(kAcceptPollMs);
    } catch (const ControlError &e) {
        // Out of file descriptors, say: tell, and give sessions time to end.
        serve_log(e.what());
        std::this_thread::sleep_for(std::chrono::milliseconds(kAcceptPollMs));
        return std::nullopt;
    }
}

} // namespace

void serve_log(const std::string &line) {
    std::fprintf(stderr, "cmdbench serve: %s\n", line.c_str());
}

int serve_clients(control::Listener &listener, const ClientLimits &limits,
                  const SessionBody &session, const std::atomic<bool> &interrupted) {
    SessionChildren children;
    BusyRefusals refusals;
    RefusalLog refusal_log(limits.quiet);
    const pid_t parent = getpid();
    while (!interrupted) {
        children.reap();
        refusals.service();
        std::optional<Channel> ch = next_client(listener);
        if (!ch) continue;
        // The parent never reads from a connection: a session child does, or
        // the client is told at once that the server is busy.
        if (children.size() >= size_t(limits.max_clients)) {
            refusal_log.note(ch->peer_name(), children.size(), limits.max_clients);
            refusals.refuse(std::move(*ch), children.busy_text(limits.max_clients));
            continue;
        }
        std::cout.flush();
        std::fflush(nullptr); // nothing buffered is written twice
        const pid_t pid = fork();
        if (pid == 0) run_child(parent, listener, refusals, *ch, session);
        if (pid < 0) {
            const std::string why = std::strerror(errno);
            serve_log("cannot start a session for " + ch->peer_name() + ": fork: " + why);
            refusals.refuse(std::move(*ch), "the server cannot start a session: fork: " + why);
            continue;
        }
        children.add(pid, ch->peer_name());
    }
    children.stop_all(kStopGraceMs);
    return 130;
}

} // namespace cmdbench

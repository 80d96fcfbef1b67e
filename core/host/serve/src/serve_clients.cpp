#include "serve_clients.hpp"

#include "busy_refusals.hpp"
#include "cmdbench/host/run/test_executor.hpp"
#include "cmdbench/host/serve/serve_label.hpp"
#include "session_children.hpp"
#include "session_table.hpp"

#include <algorithm>
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
// How long an authenticated client waits for a session to end before it
// is told "busy": one right after another's Bye is served, not refused.
constexpr auto kSessionWait = std::chrono::milliseconds(300);
// Handshakes at once, besides the sessions: enough for a cluster's clients
// arriving together, few enough to be cheap.
constexpr size_t kMinHandshakes = 32;
// A child still in its handshake this long after its handshake deadline is
// stuck (in a send, say): ended.
constexpr auto kHandshakeBackstop = std::chrono::milliseconds(control::kServerHandshakeMs + 2000);

// A full pool makes room by dropping the oldest handshake of the address
// holding the most. For a connection from that same address, only one at
// least this old: a burst from one address then costs an accept each, not
// a fork each, while one that reconnects every 100 ms still gets through
// (its pool's oldest handshake is seconds old).
constexpr auto kSameHostDropAge = std::chrono::milliseconds(250);

size_t handshake_pool(int max_clients) {
    return std::max(kMinHandshakes, size_t(max_clients));
}

// The next connection within wait_ms, if any.
std::optional<Channel> next_client(control::Listener &listener, int wait_ms) {
    try {
        return listener.accept_within(wait_ms);
    } catch (const ControlError &e) {
        // Out of file descriptors, say: tell, and give sessions time to end.
        serve_log(e.what());
        std::this_thread::sleep_for(std::chrono::milliseconds(kAcceptPollMs));
        return std::nullopt;
    }
}

// The parent's state: the children (one per connection), the table they
// share, the connections refused outright.
class Dispatcher {
  public:
    Dispatcher(control::Listener &listener, const ClientLimits &limits, const SessionBody &session)
        : listener_(listener), limits_(limits), session_(session),
          pool_(handshake_pool(limits.max_clients)),
          table_(limits.max_clients, size_t(limits.max_clients) + 2 * pool_), children_(table_),
          parent_(getpid()) {}

    void step() {
        children_.reap();
        refusals_.service();
        for (pid_t stuck : children_.handshakes_older_than(kHandshakeBackstop))
            drop(stuck, "its handshake took too long");
        std::optional<Channel> ch = next_client(listener_, kAcceptPollMs);
        if (!ch) return;
        children_.reap();
        if (table_.handshakes() >= pool_) {
            if (auto victim = children_.handshake_to_drop(ch->peer_name(), kSameHostDropAge))
                drop(*victim, "to make room: " + std::to_string(pool_) + " handshakes at once");
        }
        std::optional<size_t> entry;
        if (table_.handshakes() < pool_) entry = table_.add(ch->peer_name());
        if (!entry)
            refuse(std::move(*ch));
        else
            start_session(*ch, *entry);
    }

    void stop() { children_.stop_all(kStopGraceMs); }

  private:
    void log_refusal(const std::string &line) {
        size_t suppressed = 0;
        if (limits_.quiet || !table_.refusal_log_due(suppressed)) return;
        serve_log(suppressed ? line + " (and " + std::to_string(suppressed) +
                                   " more refused since the last such line)"
                             : line);
    }

    void drop(pid_t pid, const std::string &why) {
        const std::string peer = children_.peer(pid);
        if (children_.drop_handshake(pid))
            log_refusal("dropped the handshake of " + peer + ": " + why);
    }

    // No room for even a handshake. Nothing here has proved it holds the
    // token, so the answer names no one.
    void refuse(Channel &&ch) {
        const std::string why = "server busy (" + std::to_string(table_.sessions()) + " of " +
                                std::to_string(limits_.max_clients) + " clients, " +
                                std::to_string(table_.handshakes()) +
                                " connections in their handshake); try again later";
        log_refusal("turned away " + ch.peer_name() + ": " + why);
        refusals_.refuse(std::move(ch), why);
    }

    void start_session(Channel &ch, size_t entry) {
        std::cout.flush();
        std::fflush(nullptr); // nothing buffered is written twice
        const pid_t pid = fork();
        if (pid == 0) run_child(ch, entry);
        if (pid < 0) {
            const std::string why = std::strerror(errno);
            table_.remove(entry);
            serve_log("cannot start a session for " + ch.peer_name() + ": fork: " + why);
            refusals_.refuse(std::move(ch), "the server cannot start a session: fork: " + why);
            return;
        }
        children_.add(pid, ch.peer_name(), entry);
    }

    // In the child: the session runs with none of the parent's listening
    // state or other connections, and ends with the parent.
    [[noreturn]] void run_child(Channel &ch, size_t entry) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent_) _exit(1);
        // Ctrl-C reaches the whole process group: the parent decides, and
        // stops its sessions with SIGTERM.
        signal(SIGINT, SIG_IGN);
        listener_.close();
        refusals_.close_all();
        SessionGate gate;
        gate.admit = [this, entry] { return table_.claim(entry, kSessionWait); };
        gate.log_refusal = [this](const std::string &line) { log_refusal(line); };
        const int code = session_(ch, gate);
        table_.leave(entry);
        std::cout.flush();
        std::fflush(nullptr);
        _exit(code);
    }

    control::Listener &listener_;
    const ClientLimits &limits_;
    const SessionBody &session_;
    const size_t pool_;
    SessionTable table_;
    SessionChildren children_;
    BusyRefusals refusals_;
    const pid_t parent_;
};

} // namespace

void serve_log(const std::string &line) {
    static const std::string prefix = serve_log_prefix();
    std::fprintf(stderr, "%s%s\n", prefix.c_str(), line.c_str());
}

int serve_clients(control::Listener &listener, const ClientLimits &limits,
                  const SessionBody &session, const std::atomic<bool> &interrupted) {
    Dispatcher dispatcher(listener, limits, session);
    while (!interrupted)
        dispatcher.step();
    dispatcher.stop();
    return 130;
}

} // namespace cmdbench

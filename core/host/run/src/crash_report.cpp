#include "cmdbench/host/run/crash_report.hpp"

#include "cmdbench/host/run/exit_status.hpp"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <mutex>
#include <new>
#include <unistd.h>

namespace cmdbench::crash_report {
namespace {

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

// Two slots, so an activity is never read half-written: the writer fills
// the slot not in use, then publishes its index.
struct Slot {
    char who[256];
    char where[768];
};
Slot g_slots[2];
std::atomic<int> g_current{-1};
std::mutex g_mu; // writers only; the handler never locks
std::string g_who, g_where;

char g_prefix[64] = "cmdbench: ";
int g_crash_fd = -1;
bool g_stderr_tty = false;           // a progress line may be half drawn there
std::atomic<bool> g_reported{false}; // one line per death

void copy_text(char *dst, size_t cap, const std::string &src) {
    size_t n = std::min(src.size(), cap - 1);
    std::memcpy(dst, src.data(), n);
    dst[n] = '\0';
}

void publish(const std::string &who, const std::string &where) {
    std::lock_guard<std::mutex> lock(g_mu);
    g_who = who;
    g_where = where;
    if (who.empty()) {
        g_current.store(-1);
        return;
    }
    int next = g_current.load() == 0 ? 1 : 0;
    copy_text(g_slots[next].who, sizeof g_slots[next].who, who);
    copy_text(g_slots[next].where, sizeof g_slots[next].where, where);
    g_current.store(next);
}

// A line built with async-signal-safe steps only.
struct Line {
    char buf[1400];
    size_t len = 0;
    Line &operator<<(const char *s) {
        while (s && *s && len < sizeof buf - 1)
            buf[len++] = *s++;
        return *this;
    }
    void emit() {
        buf[len++] = '\n';
        // On a terminal, first erase a progress line the crash interrupted;
        // elsewhere the message is a line of its own, with no blank before.
        static const char erase[] = "\r\033[K";
        ssize_t ignored = g_stderr_tty ? write(STDERR_FILENO, erase, sizeof erase - 1) : 0;
        ignored = write(STDERR_FILENO, buf, len);
        if (g_crash_fd >= 0) ignored = write(g_crash_fd, buf, len);
        (void)ignored;
    }
};

// "<prefix><who> <verb> (<detail>) <where>".
void report(const char *verb, const char *detail1, const char *detail2) {
    Line line;
    line << g_prefix;
    int slot = g_current.load();
    line << (slot >= 0 ? g_slots[slot].who : "cmdbench") << " " << verb << " (" << detail1;
    if (detail2 && *detail2) line << ", " << detail2;
    line << ")";
    if (slot >= 0 && g_slots[slot].where[0]) line << " " << g_slots[slot].where;
    line.emit();
}

// The actions in place before install(): the default, or a sanitizer's
// handler, which then still prints its report after ours.
struct sigaction g_previous[NSIG];

void on_fatal_signal(int sig) {
    if (!g_reported.exchange(true)) report("crashed", signal_name(sig), signal_meaning(sig));
    // Hand the signal on: restore the previous action; the signal is blocked
    // while we run, so re-raised it reaches that action as soon as we return
    // (a fault re-executes and reaches it either way).
    sigaction(sig, &g_previous[sig], nullptr);
    raise(sig);
}

// Allocates nothing: memory may be what ran out (nlohmann's destructors
// allocate, so a bad_alloc while copying a JSON tree ends here).
void on_terminate() {
    const char *what = "not a std::exception"; // x.what() lives as long as `e`
    bool out_of_memory = false;
    if (std::exception_ptr e = std::current_exception()) {
        try {
            std::rethrow_exception(e);
        } catch (const std::bad_alloc &) {
            out_of_memory = true;
        } catch (const std::exception &x) {
            what = x.what();
        } catch (...) {
        }
    } else {
        what = "std::terminate called without an exception";
    }
    // Memory running out (ulimit -v, serve --max-memory) is a limit met, not
    // a bug to dump core for: said, and exit status 2 as on the main thread.
    if (out_of_memory) {
        if (!g_reported.exchange(true))
            report("ran out of memory", "std::bad_alloc", "an allocation failed");
        _exit(kExitUsage);
    }
    if (!g_reported.exchange(true))
        report("threw an uncaught exception", what, "the process must stop");
    std::abort();
}

} // namespace

void install() {
    g_stderr_tty = isatty(STDERR_FILENO) == 1;
    if (const char *fd = std::getenv("CMDBENCH_CRASH_FD")) {
        g_crash_fd = std::atoi(fd);
        if (g_crash_fd <= STDERR_FILENO || fcntl(g_crash_fd, F_SETFD, FD_CLOEXEC) != 0)
            g_crash_fd = -1;
        unsetenv("CMDBENCH_CRASH_FD");
    }
    static ThreadAltStack main_stack;
    struct sigaction sa {};
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_ONSTACK;
    for (int sig : kFatalSignals)
        sigaction(sig, &sa, &g_previous[sig]);
    std::set_terminate(on_terminate);
}

void set_prefix(const char *prefix) {
    copy_text(g_prefix, sizeof g_prefix, prefix);
}

const char *prefix() {
    return g_prefix;
}

Activity::Activity(const std::string &who, const std::string &where) {
    {
        std::lock_guard<std::mutex> lock(g_mu);
        saved_who_ = g_who;
        saved_where_ = g_where;
    }
    publish(who, where);
}

Activity::~Activity() {
    publish(saved_who_, saved_where_);
}

ThreadAltStack::ThreadAltStack() {
    // A thread that has one already (a sanitizer's runtime gives each thread
    // its own) keeps it: its owner frees it at thread exit.
    stack_t current{};
    if (sigaltstack(nullptr, &current) != 0 || !(current.ss_flags & SS_DISABLE)) return;
    // Big enough for the handler's line and a libc write, with room to spare.
    const size_t size = 64 * 1024;
    stack_ = std::malloc(size);
    if (!stack_) return;
    stack_t ss{};
    ss.ss_sp = stack_;
    ss.ss_size = size;
    if (sigaltstack(&ss, nullptr) != 0) {
        std::free(stack_);
        stack_ = nullptr;
    }
}

ThreadAltStack::~ThreadAltStack() {
    if (!stack_) return;
    stack_t ss{};
    ss.ss_flags = SS_DISABLE;
    sigaltstack(&ss, nullptr);
    std::free(stack_);
}

const char *signal_name(int sig) {
    switch (sig) {
    case SIGSEGV:
        return "SIGSEGV";
    case SIGBUS:
        return "SIGBUS";
    case SIGFPE:
        return "SIGFPE";
    case SIGILL:
        return "SIGILL";
    case SIGABRT:
        return "SIGABRT";
    case SIGTERM:
        return "SIGTERM";
    case SIGINT:
        return "SIGINT";
    case SIGHUP:
        return "SIGHUP";
    case SIGKILL:
        return "SIGKILL";
    case SIGPIPE:
        return "SIGPIPE";
    default:
        return "a signal";
    }
}

const char *signal_meaning(int sig) {
    switch (sig) {
    case SIGSEGV:
        return "segmentation fault";
    case SIGBUS:
        return "bus error";
    case SIGFPE:
        return "arithmetic exception";
    case SIGILL:
        return "illegal instruction";
    case SIGABRT:
        return "aborted";
    case SIGTERM:
        return "terminated";
    case SIGINT:
        return "interrupted";
    case SIGHUP:
        return "hangup";
    case SIGKILL:
        return "killed";
    case SIGPIPE:
        return "broken pipe";
    default:
        return "";
    }
}

} // namespace cmdbench::crash_report

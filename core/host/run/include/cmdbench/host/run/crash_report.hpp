// Names who crashed: before plugin code runs, the host records what is
// running (plugin, test or transport, hook, run); a fatal signal or an
// uncaught exception then prints one line saying so, and the process dies
// as it would have (same signal, so the exit status and core stay honest);
// an uncaught std::bad_alloc, memory run out, exits with status 2 instead.
#pragma once
#include <string>

namespace cmdbench::crash_report {

// Handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT (on an alternate
// stack, so a stack overflow reports too) and std::set_terminate. When the
// environment has CMDBENCH_CRASH_FD=N, the line also goes to fd N (the
// local server's parent reads it there).
void install();

// What starts every line: "cmdbench: " (default) or "cmdbench serve: ".
void set_prefix(const char *prefix);
const char *prefix();

// While alive, a crash is blamed on `who` ("plugin 'stream'") doing `where`
// ("in test 'pingpong', hook run, run 'x' (repeat 2 of 3)"). Nests: the
// previous activity comes back when it ends.
class Activity {
  public:
    Activity(const std::string &who, const std::string &where);
    ~Activity();
    Activity(const Activity &) = delete;
    Activity &operator=(const Activity &) = delete;

  private:
    std::string saved_who_, saved_where_;
};

// Gives the calling thread an alternate signal stack (threads do not
// inherit one) for as long as this object lives, unless it has one.
class ThreadAltStack {
  public:
    ThreadAltStack();
    ~ThreadAltStack();
    ThreadAltStack(const ThreadAltStack &) = delete;
    ThreadAltStack &operator=(const ThreadAltStack &) = delete;

  private:
    void *stack_ = nullptr;
};

// "SIGSEGV" and "segmentation fault" for the fatal signals (and SIGTERM,
// SIGINT, SIGKILL, SIGPIPE); "signal N" and "" otherwise. Async-signal-safe.
const char *signal_name(int sig);
const char *signal_meaning(int sig);

} // namespace cmdbench::crash_report

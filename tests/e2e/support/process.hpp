// Runs the real cmdbench binary as a child process for end-to-end tests.
#pragma once
#include <chrono>
#include <set>
#include <string>
#include <sys/types.h>
#include <vector>

struct ProcessResult {
    int exit_code = -1; // -1: killed by the test's own timeout
    std::string out, err;
    double seconds = 0;     // wall time
    double cpu_seconds = 0; // user + system time of it and the children it waited for
};

std::string cmdbench_exe();
std::string source_path(const std::string &rel);
// A new directory under /tmp, removed when the test run passes (kept, and
// named on stderr, when it fails; CMDBENCH_KEEP_TEST_DIRS=1 keeps it always).
std::string temp_dir();

// Runs argv with a hard timeout (the process group is killed past it).
ProcessResult run_process(const std::vector<std::string> &argv, int timeout_s = 120,
                          const std::vector<std::string> &extra_env = {});

// Starts argv in the background with stdout/stderr to files; returns its pid.
pid_t start_process(const std::vector<std::string> &argv, const std::string &out_file,
                    const std::string &err_file);
// Waits up to timeout_s; returns the exit code, or -1 after killing it.
// `cpu_seconds`, when given, gets its CPU time (user + system).
int wait_process(pid_t pid, int timeout_s, double *cpu_seconds = nullptr);
std::string read_file(const std::string &path);
// The fields after the command name in /proc/PID/stat ("state ppid ...");
// the name may hold spaces and parentheses, so they are read after the last
// ')'. Empty when the process is gone.
std::string proc_stat_fields(pid_t pid);
// Seconds of the steady clock since t0.
double seconds_since(std::chrono::steady_clock::time_point t0);
// A wall-time bound for "ends promptly rather than waiting out a timeout":
// `seconds` on a quiet machine, stretched by the load per CPU (the 1-minute
// load average) when that is above 1, so that a busy CI machine does not
// fail a program that did nothing wrong. A bound on the work a program does
// is better put on ProcessResult::cpu_seconds, which load does not stretch.
double wall_bound(double seconds);
// The dynamic symbols a shared object defines (`nm -D --defined-only`);
// throws std::runtime_error when nm fails.
std::set<std::string> exported_symbols(const std::string &file);
// Whether any process has this command-line fragment (e.g. a leftover server).
bool process_running_with(const std::string &fragment);

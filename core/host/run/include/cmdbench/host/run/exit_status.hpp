// The exit status of `cmdbench run`, alone or as a matrix job (documented in
// README.md, "Exit status"), decided by one rule for both.
#pragma once
#include "cmdbench/report/result.hpp"

namespace cmdbench {

enum ExitCode {
    kExitOk = 0,
    kExitRunFailed = 1,   // a run failed, timed out, or was skipped without --allow-skip
    kExitUsage = 2,       // bad command line, scenario or plugin
    kExitExpectation = 3, // every run ran, but an expectation failed or could not be judged
    kExitInterrupted = 130
};

struct RunEnding {
    bool interrupted = false;
    bool allow_skip = false;   // --allow-skip
    bool write_failed = false; // an output could not be written (already said)
    const char *runs = "runs"; // what the report's runs are, for messages: "pair runs"
};

// In order: interrupted 130; a run that did not succeed 1; a skipped run
// without --allow-skip 1; an output not written 1; an expectation that did
// not hold 3; else 0. Says why on stderr.
int exit_status(const Report &report, const RunEnding &ending);

// A test thread that could not be stopped still runs inside this process:
// with the results out, leave without waiting for it, and never with 0.
[[noreturn]] void leave_abandoned(int status);

} // namespace cmdbench

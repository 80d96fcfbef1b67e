#include "cmdbench/host/run/exit_status.hpp"

#include "cmdbench/report/verdict.hpp"

#include <cstdio>
#include <unistd.h>

namespace cmdbench {

int exit_status(const Report &report, const RunEnding &ending) {
    if (ending.interrupted) return kExitInterrupted;
    int failed = 0, skipped = 0;
    for (const auto &r : report.runs) {
        if (r.status == RunStatus::Skipped)
            ++skipped;
        else if (r.status != RunStatus::Ok)
            ++failed;
    }
    if (failed) {
        std::fprintf(stderr, "cmdbench: %d of %zu %s did not succeed\n", failed, report.runs.size(),
                     ending.runs);
        return kExitRunFailed;
    }
    if (skipped && !ending.allow_skip) {
        std::fprintf(stderr,
                     "cmdbench: %d of %zu %s were skipped (pass --allow-skip to accept that)\n",
                     skipped, report.runs.size(), ending.runs);
        return kExitRunFailed;
    }
    if (ending.write_failed) return kExitRunFailed;
    const auto verdicts = evaluate_expectations(report);
    if (!all_held(verdicts)) {
        std::fprintf(stderr, "cmdbench: %s\n", verdict_summary(verdicts).c_str());
        return kExitExpectation;
    }
    return kExitOk;
}

void leave_abandoned(int status) {
    std::fflush(nullptr);
    _exit(status == kExitOk ? kExitRunFailed : status);
}

} // namespace cmdbench

#include "cmdbench/host/run/exit_status.hpp"

#include "cmdbench/report/matrix/matrix_verdicts.hpp"
#include "cmdbench/report/verdict.hpp"

#include <algorithm>
#include <cstdio>
#include <unistd.h>

namespace cmdbench {

namespace {

// A matrix's verdicts by link, worst first; "" when none has a pair.
std::string matrix_line(const Report &report, const std::vector<ExpectVerdict> &verdicts) {
    if (!report.matrix) return "";
    const MatrixVerdicts m = matrix_verdicts(report, verdicts);
    return m.links.empty() ? "" : matrix_verdict_line(m);
}

// A matrix whose pairs did not all run still names its failing links: the
// exit status is that of the runs, but a failed link is what to fix.
void say_failed_links(const Report &report) {
    if (!report.matrix) return;
    const auto verdicts = evaluate_expectations(report);
    const bool failed = std::any_of(verdicts.begin(), verdicts.end(), [](const ExpectVerdict &v) {
        return v.outcome == Outcome::Fail;
    });
    if (failed) std::fprintf(stderr, "cmdbench: %s\n", matrix_line(report, verdicts).c_str());
}

} // namespace

int exit_status(const Report &report, const RunEnding &ending) {
    if (ending.interrupted) {
        say_failed_links(report);
        return kExitInterrupted;
    }
    int failed = 0, skipped = 0;
    size_t runs = 0;
    for_each_run(report, [&](const RunResult &r) {
        ++runs;
        if (r.status == RunStatus::Skipped)
            ++skipped;
        else if (r.status != RunStatus::Ok)
            ++failed;
    });
    if (failed) {
        std::fprintf(stderr, "cmdbench: %d of %zu %s did not succeed\n", failed, runs, ending.runs);
        say_failed_links(report);
        return kExitRunFailed;
    }
    if (skipped && !ending.allow_skip) {
        std::fprintf(stderr,
                     "cmdbench: %d of %zu %s were skipped (pass --allow-skip to accept that)\n",
                     skipped, runs, ending.runs);
        return kExitRunFailed;
    }
    if (ending.write_failed) return kExitRunFailed;
    const auto verdicts = evaluate_expectations(report);
    if (!all_held(verdicts)) {
        const std::string links = matrix_line(report, verdicts);
        std::fprintf(stderr, "cmdbench: %s\n",
                     (links.empty() ? verdict_summary(verdicts) : links).c_str());
        return kExitExpectation;
    }
    return kExitOk;
}

void leave_abandoned(int status) {
    std::fflush(nullptr);
    _exit(status == kExitOk ? kExitRunFailed : status);
}

} // namespace cmdbench

// What one side keeps while it runs, and how its outcome is said and kept.
#pragma once
#include "cmdbench/host/params/params.hpp"
#include "cmdbench/host/plugins/registry.hpp"
#include "cmdbench/host/run/test_executor.hpp"
#include "cmdbench/report/result.hpp"
#include "perftest_options.hpp"

#include <string>
#include <vector>

namespace cmdbench::perftest_frontend {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;
constexpr int kExitInterrupted = 130;

struct SideResult {
    RunStatus status = RunStatus::Ok;
    std::string error;
    std::vector<Row> rows;
    std::vector<std::pair<std::string, std::string>> settings; // what the plugin recorded
    WireParams params;
    double wall_seconds = 0;
    CpuTime cpu_ours, cpu_peer;
    bool abandoned = false; // the test did not stop within its grace
};

// Prints the error (stderr, "cmdbench ib_write_bw: ...") and returns the
// exit status of the outcome.
int report_outcome(const Options &o, const SideResult &r);

// -o and --report, when asked: false when a file could not be written
// (said on stderr).
bool write_results(const Options &o, const SideResult &r, const Registry &registry);

} // namespace cmdbench::perftest_frontend

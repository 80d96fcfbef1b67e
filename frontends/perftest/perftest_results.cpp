// A side's outcome: its message, its exit status, and the results files.
#include "cmdbench/host/machine/run_context.hpp"
#include "cmdbench/report/output_format.hpp"
#include "cmdbench/report/result_sink.hpp"
#include "perftest_params.hpp"
#include "perftest_side.hpp"

#include <cstdio>

namespace cmdbench::perftest_frontend {

int report_outcome(const Options &o, const SideResult &r) {
    if (r.status == RunStatus::Ok) return kExitOk;
    const char *what = r.status == RunStatus::Skipped       ? "skipped: "
                       : r.status == RunStatus::Interrupted ? "interrupted: "
                                                            : "";
    std::fprintf(stderr, "cmdbench %s: %s%s\n", o.tool->name, what, r.error.c_str());
    if (r.status == RunStatus::Interrupted && !r.rows.empty())
        std::fprintf(stderr, "cmdbench %s: the %zu line%s printed above %s kept%s\n", o.tool->name,
                     r.rows.size(), r.rows.size() == 1 ? "" : "s",
                     r.rows.size() == 1 ? "is" : "are",
                     o.results_file.empty() ? "" : (" in " + o.results_file).c_str());
    std::fflush(stderr);
    return r.status == RunStatus::Interrupted ? kExitInterrupted : kExitFailed;
}

bool write_results(const Options &o, const SideResult &r, const Registry &registry) {
    if (o.results_file.empty() && o.report_file.empty()) return true;
    Report report;
    report.context = collect_context();
    for (const auto &lp : registry.plugins())
        report.context.plugins.push_back(
            {lp.desc->name, lp.desc->version, lp.file, lp.desc->abi_major, lp.desc->abi_minor});
    RunResult run;
    run.name = o.tool->name;
    run.test = test_name(*o.tool);
    run.params = r.params;
    run.status = r.status;
    run.error = r.error;
    run.rows = r.rows;
    run.settings = r.settings;
    run.wall_seconds = r.wall_seconds;
    run.group = o.tool->name;
    run.variant = "verbs";
    (o.client() ? run.cpu_client : run.cpu_server) = r.cpu_ours;
    (o.client() ? run.cpu_server : run.cpu_client) = r.cpu_peer;
    report.runs.push_back(std::move(run));
    ResultSink sink(&format_named("table"), o.results_file, o.report_file);
    sink.finish(report);
    return !sink.write_failed();
}

} // namespace cmdbench::perftest_frontend

#include "cmdbench/host/pipeline/runner.hpp"

#include "cmdbench/host/execute/execute_job.hpp"
#include "cmdbench/host/machine/machine_load.hpp"
#include "cmdbench/host/machine/shared_cpu.hpp"
#include "cmdbench/host/plan/job_plan.hpp"
#include "cmdbench/host/run/local_node.hpp"
#include "cmdbench/report/result_sink.hpp"

#include <cstdio>
#include <unistd.h>

namespace cmdbench {
namespace {

// One job, with the machine's load around it: what the run itself used is
// this process and its children (the local server), the rest is foreign.
RunResult execute_measured(ClientState &client, const RunPlan &plan, const RunJob &job,
                           ServerLink &link) {
    RunConditions conditions = current_conditions();
    const CpuSnapshot before = take_cpu_snapshot();
    RunResult r = execute_job(client, plan, job, link);
    conditions.foreign_cpu_share = foreign_cpu_share(before, take_cpu_snapshot());
    r.conditions = std::move(conditions);
    return r;
}

// A local server inherits this process's affinity: with one CPU allowed,
// both sides take turns on it. Said even with -q, and kept in the results.
void note_single_cpu(const Scenario &scenario, const RunOptions &options, Report &report) {
    bool local_server = false;
    for (const RunSpec &spec : scenario.runs)
        local_server = local_server || (spec.server.empty() && options.server.empty());
    if (const std::string why = local_server ? single_cpu_warning() : ""; !why.empty()) {
        std::fprintf(stderr, "cmdbench: warning: %s\n", why.c_str());
        report.context.notes.push_back(why);
    }
}

// The jobs from `from` on, which never started, reported all the same: the
// output always lists every run (and repetition) of the scenario.
void report_not_run(const RunPlan &plan, size_t from, bool abandoned, Report &report) {
    const std::string why =
        abandoned ? "not run: an earlier run could not be stopped" : "not run: interrupted";
    for (size_t step = from; step < plan.steps.size(); ++step)
        report.runs.push_back(not_run(plan, RunJob{step}, why));
}

} // namespace

int run_scenario(const Scenario &scenario, const Registry &registry, RunContext context,
                 const RunOptions &options, const std::atomic<bool> &interrupted) {
    Report report;
    report.context = std::move(context);
    report.baseline = scenario.baseline;
    report.run_order = scenario.comparison.order;
    report.spread_limit = scenario.comparison.spread_limit;
    ResultSink sink(options.format, options.output, options.report);
    NoProgressDisplay no_progress;
    ProgressDisplay &progress = options.progress ? *options.progress : no_progress;
    ClientState client{registry, interrupted, progress};
    // With --server no run starts a local server: none needs a meeting node.
    client.local_node =
        options.server.empty() ? local_meeting_node(scenario, registry) : kLoopbackNode;
    if (client.local_node != kLoopbackNode && !options.quiet)
        std::fprintf(stderr,
                     "cmdbench: runs with a local server meet at %s, not %s: a "
                     "transport of this scenario needs a device address\n",
                     client.local_node.c_str(), kLoopbackNode);
    note_single_cpu(scenario, options, report);

    // One session per server for the whole scenario (ServerLink).
    ServerLink link;
    link.server = options.server;
    link.token = options.token;
    const RunPlan plan = plan_pair_runs(scenario);
    size_t step = 0;
    for (; step < plan.steps.size() && !interrupted && !client.abandoned; ++step) {
        const RunPart &part = plan.part_of(step);
        progress.start(part.run + 1, scenario.runs.size(), part.spec.name, plan.repeat_of(step),
                       part.spec.repeat);
        RunResult r = execute_measured(client, plan, RunJob{step}, link);
        progress.clear();
        report.runs.push_back(std::move(r));
        sink.run_done(report);
    }
    progress.clear();
    report_not_run(plan, step, client.abandoned, report);
    sink.finish(report);
    const int status =
        exit_status(report, {bool(interrupted), options.allow_skip, sink.write_failed()});
    if (client.abandoned) {
        // The local servers die with us; stop them at once all the same.
        for (auto &[name, s] : link.sessions)
            if (s.local) s.local->stop(0);
        leave_abandoned(status);
    }
    for (auto &[name, s] : link.sessions)
        close_session(s);
    return status;
}

} // namespace cmdbench

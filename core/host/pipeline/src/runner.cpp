#include "cmdbench/host/pipeline/runner.hpp"

#include "cmdbench/host/machine/machine_load.hpp"
#include "cmdbench/host/machine/shared_cpu.hpp"
#include "cmdbench/host/rails/rail_plan.hpp"
#include "cmdbench/host/rails/rails_together.hpp"
#include "cmdbench/host/run/local_node.hpp"
#include "cmdbench/host/run/run_client.hpp"
#include "cmdbench/host/scenario/run_plan.hpp"
#include "cmdbench/report/result_sink.hpp"

#include <cstdio>
#include <map>
#include <unistd.h>

namespace cmdbench {
namespace {

// What the runs of one scenario share: the servers they talk to (one session
// per server named), and the client side's state.
struct RunState {
    const RunOptions &options;
    ClientState client;
    std::map<std::string, ClientSession> sessions;
};

RunResult execute_run(RunState &st, const RunSpec &spec, unsigned repeat) {
    const std::string server = spec.server.empty() ? st.options.server : spec.server;
    auto [it, added] = st.sessions.try_emplace(server);
    if (added) {
        it->second.server = server;
        it->second.token = st.options.token;
    }
    // The machine's load around the run: what the run itself used is this
    // process and its children (the local server), the rest is foreign.
    RunConditions conditions = current_conditions();
    const CpuSnapshot before = take_cpu_snapshot();
    RunResult r = spec.rails.empty() ? run_client(st.client, it->second, spec, repeat)
                                     : run_rails_together(st.client, spec, repeat, server,
                                                          st.options.token, st.sessions);
    conditions.foreign_cpu_share = foreign_cpu_share(before, take_cpu_snapshot());
    r.conditions = std::move(conditions);
    return r;
}

} // namespace

int run_scenario(const Scenario &scenario, const Registry &registry, RunContext context,
                 const RunOptions &options, const std::atomic<bool> &interrupted) {
    Report report;
    report.context = std::move(context);
    report.baseline = scenario.baseline;
    ResultSink sink(options.format, options.output, options.report);
    NoProgressDisplay no_progress;
    ProgressDisplay &progress = options.progress ? *options.progress : no_progress;
    RunState st{options, ClientState{registry, interrupted, progress}, {}};
    st.client.local_node = local_meeting_node(scenario, registry);
    if (st.client.local_node != kLoopbackNode && !options.quiet)
        std::fprintf(stderr,
                     "cmdbench: runs with a local server meet at %s, not %s: a "
                     "transport of this scenario needs a device address\n",
                     st.client.local_node.c_str(), kLoopbackNode);

    // A local server inherits this process's affinity: with one CPU allowed,
    // both sides take turns on it. Said even with -q, and kept in the results.
    bool local_server = false;
    for (const RunSpec &spec : scenario.runs)
        local_server = local_server || (spec.server.empty() && options.server.empty());
    if (const std::string why = local_server ? single_cpu_warning() : ""; !why.empty()) {
        std::fprintf(stderr, "cmdbench: warning: %s\n", why.c_str());
        report.context.notes.push_back(why);
    }

    // Every repetition of every run, interleaved or blocked ([comparison] order).
    const std::vector<PlannedRun> plan = plan_runs(scenario.runs, scenario.comparison.order);
    report.run_order = scenario.comparison.order;
    report.spread_limit = scenario.comparison.spread_limit;

    // A run with rails is several (rail_plan.hpp): each rail's, then all at once.
    std::vector<std::vector<RunSpec>> expanded;
    for (const RunSpec &spec : scenario.runs)
        expanded.push_back(expand_rails(spec));

    size_t next = 0, part = 0;
    for (; next < plan.size() && !interrupted && !st.client.abandoned;) {
        const RunSpec &spec = expanded[plan[next].run][part];
        progress.start(plan[next].run + 1, scenario.runs.size(), spec.name, plan[next].repeat,
                       spec.repeat);
        RunResult r = execute_run(st, spec, plan[next].repeat);
        progress.clear();
        report.runs.push_back(std::move(r));
        sink.run_done(report);
        if (++part == expanded[plan[next].run].size()) part = 0, ++next;
    }
    progress.clear();
    // Runs that never started because of an interrupt are reported too, so
    // the output always lists every run (and repetition) of the scenario.
    for (; next < plan.size(); ++next, part = 0)
        for (; part < expanded[plan[next].run].size(); ++part) {
            RunResult r = result_of(expanded[plan[next].run][part], plan[next].repeat);
            r.status = RunStatus::Interrupted;
            r.error = st.client.abandoned ? "not run: an earlier run could not be stopped"
                                          : "not run: interrupted";
            report.runs.push_back(std::move(r));
        }
    sink.finish(report);
    const int status =
        exit_status(report, {bool(interrupted), options.allow_skip, sink.write_failed()});
    if (st.client.abandoned) {
        // The local servers die with us; stop them at once all the same.
        for (auto &[name, s] : st.sessions)
            if (s.local) s.local->stop(0);
        leave_abandoned(status);
    }
    for (auto &[name, s] : st.sessions)
        close_session(s);
    return status;
}

} // namespace cmdbench

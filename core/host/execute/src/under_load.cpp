#include "cmdbench/host/execute/under_load.hpp"

#include "background_flows.hpp"
#include "cmdbench/host/plugins/host_services.hpp"
#include "cmdbench/host/run/test_executor.hpp"

#include <cstdio>

namespace cmdbench {
namespace {

// The background's own spec for this run: it must outlast the measured
// run, its start wait and its stop, so its timeout is theirs and more.
RunSpec flow_spec(const RunSpec &spec) {
    RunSpec bg = spec.background->spec;
    bg.timeout_s = spec.timeout_s + kBackgroundStartSeconds + 4 * kGraceSeconds;
    bg.repeat = 1;
    return bg;
}

std::string flow_name(const RunSpec &spec, size_t k) {
    const RunSpec &bg = spec.background->spec;
    return "background flow " + std::to_string(k + 1) + " (" + bg.test +
           (bg.transport.empty() ? "" : " over " + bg.transport) + ")";
}

// The mean Gb/sec of rows [from, to) of a flow (its windows), if they have any.
std::optional<double> mean_gbps(const std::vector<Row> &rows, size_t from, size_t to) {
    double sum = 0;
    size_t n = 0;
    for (size_t i = from; i < to && i < rows.size(); ++i)
        if (const Metric *m = find_metric(rows[i], "Gb/sec")) {
            sum += m->value;
            ++n;
        }
    if (n == 0) return std::nullopt;
    return sum / double(n);
}

// What a flow moved while the run was measured: the mean of its windows that
// ended meanwhile (rows [from, to)); of all its rows when none did (a
// window longer than the run, a test that reports once at its end).
std::optional<double> flow_gbps(const std::vector<Row> &rows, size_t from, size_t to) {
    if (auto during = mean_gbps(rows, from, to)) return during;
    return mean_gbps(rows, 0, rows.size());
}

// Each flow's rows before and after the measured run.
struct RowMarks {
    std::vector<size_t> before, after;
};

// What a flow's end says about the measured run: nothing when it ran until
// it was stopped.
std::string flow_note(const RunSpec &spec, size_t k, const FlowOutcome &o) {
    if (!o.ended_early) return {};
    const std::string who = flow_name(spec, k);
    if (o.result.status == RunStatus::Ok)
        return who + " ended before the measured run did: part of the run was measured without it";
    return who + " ended before the measured run did (" + to_string(o.result.status) +
           (o.result.error.empty() ? "" : ": " + o.result.error) +
           "): part of the run was measured without it";
}

BackgroundLoad background_of(const RunSpec &spec, const std::vector<FlowOutcome> &flows,
                             const RowMarks &marks) {
    BackgroundLoad b;
    b.test = spec.background->spec.test;
    b.transport = spec.background->spec.transport;
    b.flows = unsigned(flows.size());
    for (size_t k = 0; k < flows.size(); ++k) {
        for (Row row : flows[k].result.rows) {
            row.name = "flow " + std::to_string(k + 1) + ": " + row.name;
            b.rows.push_back(std::move(row));
        }
        if (auto g = flow_gbps(flows[k].result.rows, marks.before[k], marks.after[k]))
            b.gbps = b.gbps.value_or(0) + *g;
        if (std::string note = flow_note(spec, k, flows[k]); !note.empty())
            b.notes.push_back(std::move(note));
    }
    return b;
}

// Waits for every flow to move data (bounded): a note for each that did not.
std::vector<std::string> late_flows(const RunSpec &spec, BackgroundFlows &flows,
                                    const std::atomic<bool> &interrupted) {
    std::vector<std::string> late;
    if (flows.wait_started(kBackgroundStartSeconds, interrupted) == 0) return late;
    const std::vector<bool> started = flows.started();
    for (size_t k = 0; k < started.size(); ++k)
        if (!started[k])
            late.push_back(flow_name(spec, k) + " reported no data within " +
                           std::to_string(int(kBackgroundStartSeconds)) +
                           " s: the run was measured without waiting for it");
    return late;
}

// The moment the measured run starts, for whoever watches the run.
void say_measuring(const RunSpec &spec, size_t late) {
    if (plugin_log_level() < CMDBENCH_LOG_INFO) return;
    const unsigned flows = spec.background->flows;
    const std::string waiting =
        late ? " (" + std::to_string(late) + " of them reported no data yet)" : "";
    std::fprintf(stderr, "cmdbench: info: %s: measuring beside %u background flow%s%s\n",
                 spec.name.c_str(), flows, flows == 1 ? "" : "s", waiting.c_str());
}

} // namespace

RunResult run_under_load(ClientState &st, ClientSession &session, const RunSpec &spec,
                         unsigned repeat, const std::string &server, const std::string &token) {
    std::vector<std::string> late;
    RunResult r;
    std::vector<FlowOutcome> outcomes;
    RowMarks marks;
    {
        BackgroundFlows flows(st, flow_spec(spec), spec.background->flows, repeat, server, token);
        late = late_flows(spec, flows, st.interrupted);
        say_measuring(spec, late.size());
        marks.before = flows.rows_so_far();
        if (!st.interrupted) {
            r = run_client(st, session, spec, repeat);
        } else {
            r = result_of(spec, repeat);
            r.status = RunStatus::Interrupted;
            r.error = "interrupted";
        }
        marks.after = flows.rows_so_far();
        outcomes = flows.stop();
    }
    r.background = background_of(spec, outcomes, marks);
    r.background->notes.insert(r.background->notes.begin(), late.begin(), late.end());
    // A run that could not run here says why; its background's fate adds nothing.
    if (r.status == RunStatus::Skipped) r.background->notes.clear();
    for (const FlowOutcome &o : outcomes)
        if (o.abandoned) st.abandoned = true;
    for (const std::string &note : r.background->notes)
        std::fprintf(stderr, "cmdbench: warning: %s: %s\n", r.name.c_str(), note.c_str());
    return r;
}

} // namespace cmdbench

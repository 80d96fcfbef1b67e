// What a run produced, independent of how it is reported.
#pragma once
#include "cmdbench/report/compare/comparison_settings.hpp"
#include "cmdbench/report/expectation.hpp"
#include "cmdbench/report/histogram.hpp"
#include "cmdbench/report/matrix/matrix_result.hpp"
#include "cmdbench/report/path_context.hpp"
#include "cmdbench/report/run_conditions.hpp"
#include "cmdbench/report/run_counters.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cmdbench {

// What a metric measures (plugin.h, struct cmdbench_metric_meaning); kind 0
// when nobody said. Rows read from a plugin or a results file that did not
// say get the meaning the shipped plugins' pre-1.2 names had
// (old_metric_names.hpp), marked so results files still leave it out.
struct MetricMeaning {
    uint32_t kind = 0;   // enum cmdbench_metric_kind
    uint32_t better = 0; // enum cmdbench_better
    uint32_t flags = 0;  // enum cmdbench_metric_flags
    bool from_old_name = false;
    bool declared() const { return kind != 0 && !from_old_name; }
    bool has(uint32_t flag) const { return (flags & flag) != 0; }
};

struct Metric {
    std::string key;
    double value = 0;
    uint32_t unit = 0; // enum cmdbench_unit
    MetricMeaning meaning = {};
};

struct HistMetric {
    std::string key;
    HistSummary summary;
    MetricMeaning meaning = {};
};

struct Row {
    std::string name;
    std::vector<Metric> metrics; // in the order the test set them
    std::vector<HistMetric> hists;
};

// The row's first metric or histogram named `key`, or nullptr.
inline const Metric *find_metric(const Row &row, const std::string &key) {
    for (const auto &m : row.metrics)
        if (m.key == key) return &m;
    return nullptr;
}
inline const HistMetric *find_hist(const Row &row, const std::string &key) {
    for (const auto &h : row.hists)
        if (h.key == key) return &h;
    return nullptr;
}

enum class RunStatus { Ok, Failed, Skipped, TimedOut, Interrupted };

// CPU time one side of a run used (getrusage deltas around the run).
// Negative when not measured (a skipped run, an old server).
struct CpuTime {
    double user_s = -1;
    double sys_s = -1;
    bool measured() const { return user_s >= 0 && sys_s >= 0; }
};
const char *to_string(RunStatus s);

// One rail of a run on every rail at once (scenario key `rails`), or one pair
// of a run of several (`pairs`): how it went and where its data went. Its
// rows are the run's "LABEL/..." rows.
struct RailPart {
    std::string label;
    RunStatus status = RunStatus::Ok;
    std::string error;
    double start_seconds = 0; // since the first rail started
    double wall_seconds = 0;
    RunPath path;
};

// The traffic a run was measured under (scenario key `background`): what
// ran beside it, the rows it reported and what it moved.
struct BackgroundLoad {
    std::string test;
    std::string transport;
    unsigned flows = 0;
    std::vector<Row> rows;      // every flow's rows, named "flow K: ROW"
    std::optional<double> gbps; // the sum over flows of each flow's mean Gb/sec
    // What went wrong with it (a flow that ended early or failed); the
    // measured rows are kept all the same.
    std::vector<std::string> notes;
};

struct RunResult {
    std::string name; // run label (scenario `name`, or test/transport)
    std::string test;
    std::string transport;                                   // empty for a test without transport
    std::vector<std::pair<std::string, std::string>> params; // key, value text
    // What the test said it used (host service run_setting): key, value
    // text, in the order set; the client side's.
    std::vector<std::pair<std::string, std::string>> settings;
    RunStatus status = RunStatus::Ok;
    std::string error; // one line; empty when ok
    std::vector<Row> rows;
    double wall_seconds = 0;
    // Comparison: runs with the same group are compared across variants
    // (scenario keys `group`, default the test name, and `variant`, default
    // the transport, else the test name).
    std::string group;
    std::string variant;
    std::vector<std::string> compare; // metric families to compare; empty = all
    unsigned repeat = 1;              // 1-based index of this repetition of the run
    unsigned repeats = 1;             // `repeat = N` in the scenario
    CpuTime cpu_client;               // this process
    CpuTime cpu_server;               // the server side, as it reported it
    std::optional<RunPair> pair;      // matrix mode: who measured
    RunConditions conditions;         // the machine's load around this run (pipeline)
    RunPath path;                     // interfaces and RDMA devices (run_client.cpp)
    std::vector<RailPart> rails;      // a run on every rail at once (rails_together.cpp)
    std::vector<RailPart> pairs; // a run of several pairs at once ("pair K"; pairs_together.cpp)
    std::string pairs_series;    // one count of a `pairs` series: the series' run name
    RunCounters counters;        // counter deltas over the run, each side's (run_client.cpp)
    Expectations expect;         // scenario `expect`: what verdict.hpp judges

    // The load it was measured under (under_load.cpp), for a run under load.
    std::optional<BackgroundLoad> background;
};

struct PluginInfo {
    std::string name, version, file;
    unsigned abi_major = 0, abi_minor = 0;
};

struct RunContext {
    std::string hostname, kernel, cpu_model;
    unsigned cpu_count = 0;
    std::string cmdbench_version;
    std::vector<PluginInfo> plugins;
    std::string scenario_path;
    std::string scenario_text; // the effective scenario (after --set)
    std::string start_time;    // ISO 8601 UTC
    RunConditions conditions;  // load average and governor at the start
    // Warnings about the whole invocation that a reader of the results must
    // see (client and local server on one CPU, a rank gone mid-matrix).
    std::vector<std::string> notes;
};

// Runs handed over one at a time, in order, as often as asked: a matrix
// job's pairs are read back from disk rather than held (docs/matrix.md,
// "Scale"). A run handed to a visitor lives only for the call.
using RunVisitor = std::function<void(const RunResult &)>;
using RunStream = std::function<void(const RunVisitor &)>;

struct Report {
    RunContext context;
    std::string baseline; // comparison baseline variant (scenario `baseline`, default "tcp")
    std::vector<RunResult> runs;
    RunStream streamed;                // when set, the runs instead of `runs` (which is empty)
    std::optional<MatrixInfo> matrix;  // matrix mode: the job's ranks
    std::optional<RunOrder> run_order; // how repeats were scheduled; unset = not recorded
    double spread_limit = kDefaultSpreadLimit; // comparison: flag wider repeats
};

// Every run of REPORT, in order: held or streamed.
inline void for_each_run(const Report &report, const RunVisitor &visit) {
    if (report.streamed) {
        report.streamed(visit);
        return;
    }
    for (const RunResult &r : report.runs)
        visit(r);
}

} // namespace cmdbench

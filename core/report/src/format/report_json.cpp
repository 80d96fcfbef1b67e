// JSON results (docs/results.md). ordered_json keeps keys in the order the
// tests reported them, so documents diff cleanly between runs.
#include "cmdbench/report/compare/comparison_json.hpp"
#include "cmdbench/report/matrix/matrix_shared.hpp"
#include "cmdbench/report/matrix/matrix_verdicts.hpp"
#include "cmdbench/report/pair_scaling.hpp"
#include "cmdbench/report/rail_rows.hpp"
#include "cmdbench/report/report.hpp"
#include "cmdbench/report/report_format.hpp"
#include "cmdbench/report/reporter.hpp"
#include "cmdbench/report/run_totals.hpp"
#include "cmdbench/report/verdict.hpp"
#include "compare/comparison_document.hpp"
#include "format/json_slots.hpp"
#include "results/metric_meaning.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace cmdbench {
namespace {

using Json = nlohmann::ordered_json;

Json loadavg_json(const RunConditions &c) {
    return c.loadavg ? Json(*c.loadavg) : Json(nullptr);
}

// A run's machine load (docs/results.md, "Run conditions"); null when the
// run was not measured (matrix mode).
Json conditions_json(const RunConditions &c) {
    if (!c.measured()) return nullptr;
    return {
        {"loadavg", loadavg_json(c)},
        {"cpu_count", c.cpu_count},
        {"cpu_governor", c.cpu_governor},
        {"foreign_cpu_share", c.foreign_cpu_share ? Json(*c.foreign_cpu_share) : Json(nullptr)}};
}

Json context_json(const RunContext &c) {
    Json plugins = Json::array();
    for (const auto &p : c.plugins)
        plugins.push_back(
            {{"name", p.name},
             {"version", p.version},
             {"file", p.file},
             {"abi", std::to_string(p.abi_major) + "." + std::to_string(p.abi_minor)}});
    Json j = {
        {"host", c.hostname},
        {"kernel", c.kernel},
        {"cpu",
         {{"model", c.cpu_model},
          {"count", c.cpu_count},
          {"governor", c.conditions.cpu_governor.empty() ? "unknown" : c.conditions.cpu_governor}}},
        {"loadavg", loadavg_json(c.conditions)},
        {"cmdbench_version", c.cmdbench_version},
        {"plugins", plugins},
        {"scenario", {{"path", c.scenario_path}, {"text", c.scenario_text}}},
        {"start_time", c.start_time}};
    if (!c.notes.empty()) j["notes"] = c.notes; // only when there is one: most runs have none
    return j;
}

// A percentile of too few samples is null (docs/results.md).
Json percentile_json(const std::optional<uint64_t> &p) {
    return p ? Json(*p) : Json(nullptr);
}

Json hist_json(const HistSummary &s) {
    return {{"count", s.count},
            {"min", s.min},
            {"mean", s.mean},
            {"stddev", s.stddev},
            {"p50", percentile_json(s.p50)},
            {"p90", percentile_json(s.p90)},
            {"p99", percentile_json(s.p99)},
            {"p99_9", percentile_json(s.p999)},
            {"p99_99", percentile_json(s.p9999)},
            {"max", s.max},
            {"unit", "ns"}};
}

// What the plugin declared a metric to mean (ABI 1.2); nothing when it did
// not, so results of older plugins read as before.
void add_meaning(Json &j, const MetricMeaning &m) {
    if (!m.declared()) return;
    j["kind"] = kind_name(m.kind);
    j["better"] = better_name(m.better);
    j["flags"] = flag_names(m.flags);
}

Json row_json(const Row &row, const std::map<std::string, double> &fractions) {
    Json metrics = Json::object();
    for (const auto &m : row.metrics) {
        metrics[m.key] = {{"value", m.value}, {"unit", unit_label(m.unit)}};
        add_meaning(metrics[m.key], m.meaning);
    }
    Json hists = Json::object();
    for (const auto &h : row.hists) {
        hists[h.key] = hist_json(h.summary);
        add_meaning(hists[h.key], h.meaning);
    }
    Json j = {{"name", row.name}, {"metrics", metrics}, {"histograms", hists}};
    if (auto f = fractions.find(row.name); f != fractions.end()) j["link_fraction"] = f->second;
    return j;
}

Json cpu_side_json(const CpuTime &t) {
    if (!t.measured()) return nullptr;
    return {{"user_s", t.user_s}, {"sys_s", t.sys_s}};
}

Json optional_json(std::optional<double> v) {
    return v ? Json(*v) : Json(nullptr);
}

Json pair_json(const RunPair &p) {
    return {{"client", p.client},
            {"server", p.server},
            {"client_node", p.client_node},
            {"server_node", p.server_node},
            {"round", p.round}};
}

Json matrix_json(const MatrixInfo &m) {
    Json ranks = Json::array();
    for (const auto &r : m.ranks)
        ranks.push_back({{"rank", r.rank}, {"node", r.node}, {"address", r.address}});
    return {{"pattern", m.pattern},         {"one_pair_at_a_time", m.one_pair_at_a_time},
            {"rounds", m.rounds},           {"launcher", m.launcher},
            {"worst_links", m.worst_links}, {"ranks", ranks}};
}

Json background_json(const BackgroundLoad &b) {
    Json rows = Json::array();
    for (const Row &row : b.rows)
        rows.push_back(row_json(row, {}));
    return {{"test", b.test}, {"transport", b.transport},        {"flows", b.flows},
            {"rows", rows},   {"Gb/sec", optional_json(b.gbps)}, {"notes", b.notes}};
}

// The rails of a run on every rail at once, or the pairs of a run of several.
Json parts_json(const std::vector<RailPart> &parts) {
    Json out = Json::array();
    for (const RailPart &r : parts)
        out.push_back({{"label", r.label},
                       {"status", to_string(r.status)},
                       {"error", r.error},
                       {"start_seconds", r.start_seconds},
                       {"wall_seconds", r.wall_seconds},
                       {"path", r.path.known() ? run_path_json(r.path) : Json(nullptr)}});
    return out;
}

// A `pairs` series' scaling table (pair_scaling.hpp).
Json scaling_json(const std::vector<PairScaling> &series) {
    Json out = Json::array();
    for (const PairScaling &s : series) {
        Json rows = Json::array();
        for (const ScalingRow &row : s.rows)
            for (const ScalingPoint &p : row.points)
                rows.push_back({{"row", row.row},
                                {"pairs", p.pairs},
                                {"aggregate", p.aggregate},
                                {"pair_min", p.min_pair},
                                {"pair_max", p.max_pair},
                                {"ratio", optional_json(p.ratio)}});
        out.push_back({{"series", s.series},
                       {"repeat", s.repeat},
                       {"metric", s.metric},
                       {"ratio_to_pairs", s.base_pairs},
                       {"rows", rows}});
    }
    return out;
}

Json run_json(const RunResult &run) {
    Json params = Json::object();
    for (const auto &[key, value] : run.params)
        params[key] = value;
    Json settings = Json::object();
    for (const auto &[key, value] : run.settings)
        settings[key] = value;
    Json rows = Json::array();
    const auto fractions = row_link_fractions(run);
    for (const auto &row : run.rows)
        rows.push_back(row_json(row, fractions));
    Json j = {
        {"name", run.name},
        {"test", run.test},
        {"transport", run.transport},
        {"group", run.group},
        {"variant", run.variant},
        {"compare", run.compare},
        {"repeat", run.repeat},
        {"repeats", run.repeats},
        {"params", params},
        {"settings", settings},
        {"status", to_string(run.status)},
        {"error", run.error},
        {"wall_seconds", run.wall_seconds},
        {"cpu",
         {{"client", cpu_side_json(run.cpu_client)}, {"server", cpu_side_json(run.cpu_server)}}},
        {"cpu_per_gb_s", optional_json(run_cpu_per_gb(run))},
        {"cpu_per_conn_us", optional_json(run_cpu_per_conn_us(run))},
        {"rows", rows}};
    j["conditions"] = conditions_json(run.conditions);
    j["path"] = run.path.known() ? run_path_json(run.path) : Json(nullptr);
    if (!run.counters.empty()) j["counters"] = run_counters_json(run.counters);
    if (!run.rails.empty()) {
        j["rails"] = parts_json(run.rails);
        j["rails_overlap_seconds"] = rails_overlap_seconds(run.rails);
    }
    if (!run.pairs.empty()) {
        j["pairs"] = parts_json(run.pairs);
        j["pairs_overlap_seconds"] = rails_overlap_seconds(run.pairs);
        if (!run.pairs_series.empty()) j["pairs_series"] = run.pairs_series;
    }
    if (const auto rate = result_link_rate(run))
        j["link"] = {
            {"name", rate->name}, {"rate", rate->text}, {"rate_bps", rate->bits_per_second}};
    if (!run.expect.empty()) {
        j["expect"] = expectations_json(run.expect);
        if (run.expect.inherited) j["expect_inherited"] = true;
    }
    if (run.pair) j["pair"] = pair_json(*run.pair);
    if (run.background) j["background"] = background_json(*run.background);
    return j;
}

// Placeholder for `runs` in the document's text: each run is written into
// it on its own, so a matrix of thousands of pairs never has one JSON tree
// of them all in memory (the tree takes about ten times the text's size).
constexpr const char *kRunsPlaceholder = "cmdbench-runs-placeholder-4f1c";

// The runs as the document's `runs` array, indented as dump(2) indents it;
// a matrix's (SHARED given): each run compact on a line of its own, without
// what SHARED holds (a pair a line for grep and a line-by-line reader).
void write_runs(std::ostream &out, const Report &report, const MatrixShared *shared) {
    const bool one_line = shared != nullptr;
    bool first = true;
    for_each_run(report, [&](const RunResult &run) {
        out << (first ? "[\n" : ",\n");
        first = false;
        const Json entry = shared ? shared->compact(run_json(run)) : run_json(run);
        const std::string text =
            entry.dump(one_line ? -1 : 2, ' ', false, Json::error_handler_t::replace);
        size_t start = 0;
        while (start <= text.size()) {
            const size_t end = std::min(text.find('\n', start), text.size());
            out << "    " << std::string_view(text).substr(start, end - start);
            if (end == text.size()) break;
            out << '\n';
            start = end + 1;
        }
    });
    out << (first ? "[]" : "\n  ]");
}

} // namespace

void write_json(std::ostream &out, const Report &report, const Comparison *comparison) {
    Json doc = {{"schema", "cmdbench-results"},
                {"schema_version", kResultsSchemaVersion},
                {"context", context_json(report.context)},
                {"baseline", report.baseline}};
    // `order` only when this document's runs were scheduled by it (not matrix mode).
    doc["comparison"] = Json::object();
    if (report.run_order) doc["comparison"]["order"] = to_string(*report.run_order);
    doc["comparison"]["spread_limit"] = report.spread_limit;
    // Expectations stay at the top level only: the result is compare's
    // document without them.
    if (comparison) doc["comparison"]["result"] = comparison_document(*comparison);
    // A matrix's pairs share their runs' parameters and meanings and their
    // path ends: found in a first pass, written once (matrix_shared.hpp).
    std::optional<MatrixShared> shared;
    if (report.matrix) {
        shared.emplace();
        for_each_run(report, [&](const RunResult &run) { shared->add(run_json(run)); });
        doc["matrix"] = matrix_json(*report.matrix);
        doc["matrix"]["shared"] = shared->section();
    }
    doc["runs"] = kRunsPlaceholder;
    if (!report.matrix)
        if (const auto series = pair_scaling(report); !series.empty())
            doc["scaling"] = scaling_json(series);
    // Only when the scenario set expectations: other documents read as before.
    const auto verdicts = evaluate_expectations(report);
    // A matrix's verdicts (one per pair and check) are written one at a
    // time too, a line each, like its runs.
    const bool stream_verdicts = report.matrix && !verdicts.empty();
    if (!verdicts.empty()) {
        doc["expectations"] = verdicts_json(verdicts, !stream_verdicts);
        if (stream_verdicts) doc["expectations"]["verdicts"] = kVerdictsPlaceholder;
    }
    if (stream_verdicts)
        doc["matrix_verdicts"] = matrix_verdicts_json(matrix_verdicts(report, verdicts));
    // Replace invalid UTF-8 (e.g. a hostile host name) instead of throwing.
    const std::string text = doc.dump(2, ' ', false, Json::error_handler_t::replace);
    write_with_slots(
        out, text,
        {{"\n  \"runs\": ", kRunsPlaceholder,
          [&](std::ostream &o) { write_runs(o, report, shared ? &*shared : nullptr); }},
         verdicts_slot(verdicts_of(verdicts))});
    out << '\n';
}

std::string run_json_line(const RunResult &run) {
    return run_json(run).dump(-1, ' ', false, Json::error_handler_t::replace);
}

namespace {

class JsonReporter : public Reporter {
  public:
    void finish(std::ostream &out, const Report &report, const Comparison *comparison) override {
        write_json(out, report, comparison);
    }
    void finish_comparison(std::ostream &out, const Comparison &c,
                           const std::vector<const Report *> &,
                           const VerdictStream &verdicts) override {
        write_comparison_json(out, c, verdicts);
    }
};

} // namespace

std::unique_ptr<Reporter> make_json_reporter() {
    return std::make_unique<JsonReporter>();
}

} // namespace cmdbench

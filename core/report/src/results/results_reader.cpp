// Results JSON -> Report (docs/results.md). Fields the format may add are
// ignored; the comparison fields of newer writers (group, variant, compare,
// repeat, repeats, cpu, baseline) take the runner's defaults when absent.
#include "cmdbench/report/results_reader.hpp"

#include "cmdbench/plugin.h"
#include "cmdbench/report/input_file.hpp"
#include "cmdbench/report/matrix/matrix_shared.hpp"
#include "cmdbench/report/old_metric_names.hpp"
#include "cmdbench/report/report.hpp"
#include "cmdbench/report/report_format.hpp"
#include "cmdbench/report/verdict.hpp"
#include "results/json_document.hpp"
#include "results/metric_meaning.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

namespace cmdbench {
namespace {

// ordered_json keeps metrics in the order the tests set them.
using Json = nlohmann::ordered_json;

// A JSON value with its path in the document, for messages.
class Node {
  public:
    Node(const Json &j, std::string path, const std::string &doc)
        : j_(j), path_(std::move(path)), doc_(doc) {}

    [[noreturn]] void fail(const std::string &what) const {
        throw ResultsError(doc_ + ": " + (path_.empty() ? "" : path_ + ": ") + what);
    }
    const Json &json() const { return j_; }
    // "<doc>: <path>", what fail() puts before its message.
    std::string where() const { return doc_ + (path_.empty() ? "" : ": " + path_); }
    bool has(const char *key) const { return j_.is_object() && j_.contains(key); }

    Node at(const char *key) const { // a required field
        if (!j_.is_object()) fail("expected an object, got " + type(j_));
        if (!j_.contains(key)) fail(std::string("missing required field '") + key + "'");
        return child(key);
    }
    Node child(const std::string &key) const { return member(key, j_.at(key)); }
    // An object's member met while iterating it: at() on ordered_json is a
    // linear search, so looking each one up again would be quadratic.
    Node member(const std::string &key, const Json &value) const {
        return {value, path_.empty() ? key : path_ + "." + key, doc_};
    }
    Node element(size_t i) const { return {j_.at(i), path_ + "[" + std::to_string(i) + "]", doc_}; }

    std::string str() const {
        if (!j_.is_string()) fail("expected a string, got " + type(j_));
        return j_.get<std::string>();
    }
    double number() const { // null stands for a value that was not finite
        if (j_.is_null()) return std::numeric_limits<double>::quiet_NaN();
        if (!j_.is_number()) fail("expected a number, got " + type(j_));
        return j_.get<double>();
    }
    uint64_t count() const {
        if (!j_.is_number_unsigned() && !(j_.is_number_integer() && j_.get<int64_t>() >= 0))
            fail("expected a non-negative integer, got " + type(j_));
        return j_.get<uint64_t>();
    }
    size_t size(bool object) const {
        if (object ? !j_.is_object() : !j_.is_array())
            fail(std::string("expected an ") + (object ? "object" : "array") + ", got " + type(j_));
        return j_.size();
    }

    // Optional fields: the default when absent.
    std::string str_or(const char *key, const std::string &def) const {
        return has(key) ? child(key).str() : def;
    }
    double number_or(const char *key, double def) const {
        return has(key) ? child(key).number() : def;
    }
    uint64_t count_or(const char *key, uint64_t def) const {
        return has(key) ? child(key).count() : def;
    }

  private:
    static std::string type(const Json &j) {
        if (j.is_number()) return "a number";
        if (j.is_null()) return "null";
        const std::string t = j.type_name();
        return (t == "object" || t == "array" ? "an " : "a ") + t;
    }
    const Json &j_;
    std::string path_;
    const std::string &doc_;
};

uint32_t unit_code(const std::string &label) {
    for (uint32_t u : {CMDBENCH_UNIT_BYTES, CMDBENCH_UNIT_COUNT, CMDBENCH_UNIT_SECONDS,
                       CMDBENCH_UNIT_USEC, CMDBENCH_UNIT_GBPS, CMDBENCH_UNIT_PER_SEC})
        if (label == unit_label(u)) return u;
    return CMDBENCH_UNIT_PLAIN; // "" and units added after this reader
}

// New status values are allowed without a version bump: an unknown one is
// not a success, so it reads as a failure that keeps its name.
void read_status(const Node &run, RunResult &r) {
    const std::string s = run.at("status").str();
    r.error = run.str_or("error", "");
    for (RunStatus st : {RunStatus::Ok, RunStatus::Failed, RunStatus::Skipped, RunStatus::TimedOut,
                         RunStatus::Interrupted})
        if (s == to_string(st)) {
            r.status = st;
            return;
        }
    r.status = RunStatus::Failed;
    r.error = "status '" + s + "'" + (r.error.empty() ? "" : ": " + r.error);
}

// A run on every rail at once, or of several pairs: each rail's (pair's)
// status and path (its rows are the run's own).
std::vector<RailPart> read_rails(const Node &rails) {
    std::vector<RailPart> out;
    const size_t k = rails.size(false);
    for (size_t i = 0; i < k; ++i) {
        const Node n = rails.element(i);
        RunResult status;
        read_status(n, status);
        RailPart part;
        part.label = n.at("label").str();
        part.status = status.status;
        part.error = status.error;
        part.start_seconds = n.number_or("start_seconds", 0);
        part.wall_seconds = n.number_or("wall_seconds", 0);
        if (n.has("path")) part.path = run_path_from_json(n.child("path").json());
        out.push_back(std::move(part));
    }
    return out;
}

// A percentile: null (schema 3) when it had too few samples to be a figure.
std::optional<uint64_t> read_percentile(const Node &p) {
    if (p.json().is_null()) return std::nullopt;
    return p.count();
}

HistSummary read_hist(const Node &h) {
    HistSummary s;
    s.count = h.at("count").count();
    s.min = h.at("min").count();
    s.max = h.at("max").count();
    s.p50 = read_percentile(h.at("p50"));
    s.p99 = read_percentile(h.at("p99"));
    s.mean = h.number_or("mean", 0);
    s.stddev = h.number_or("stddev", 0);
    s.p90 = h.has("p90") ? read_percentile(h.child("p90")) : s.p99;
    s.p999 = h.has("p99_9") ? read_percentile(h.child("p99_9")) : s.max;
    s.p9999 = h.has("p99_99") ? read_percentile(h.child("p99_99")) : s.max;
    // Older files hold numbers for percentiles of too few samples: the same
    // rule as a fresh run, so old and new results compare alike.
    drop_percentiles_of_too_few_samples(s);
    return s;
}

// A declared meaning (ABI 1.2 plugins); absent = undeclared. Unknown names
// (a newer writer's) read as undeclared or none rather than failing.
MetricMeaning read_meaning(const Node &n) {
    MetricMeaning m;
    if (!n.has("kind")) return m;
    m.kind = kind_code(n.child("kind").str());
    m.better = n.has("better") ? better_code(n.child("better").str()) : 0;
    if (n.has("flags")) {
        const Node list = n.child("flags");
        for (size_t i = 0, k = list.size(false); i < k; ++i)
            m.flags |= flag_code(list.element(i).str());
    }
    return m;
}

Row read_row(const Node &n) {
    Row row;
    row.name = n.at("name").str();
    const Node metrics = n.at("metrics");
    metrics.size(true);
    for (const auto &item : metrics.json().items()) {
        const Node m = metrics.member(item.key(), item.value());
        row.metrics.push_back(
            {item.key(), m.at("value").number(), unit_code(m.str_or("unit", "")), read_meaning(m)});
    }
    if (n.has("histograms")) {
        const Node hists = n.child("histograms");
        hists.size(true);
        for (const auto &item : hists.json().items()) {
            const Node h = hists.member(item.key(), item.value());
            row.hists.push_back({item.key(), read_hist(h), read_meaning(h)});
        }
    }
    give_old_name_meanings(row); // results of a plugin that declared none
    return row;
}

CpuTime read_cpu_side(const Node &cpu, const char *side) {
    CpuTime t;
    if (!cpu.has(side) || cpu.child(side).json().is_null()) return t;
    const Node n = cpu.child(side);
    t.user_s = n.at("user_s").number();
    t.sys_s = n.at("sys_s").number();
    if (!std::isfinite(t.user_s) || !std::isfinite(t.sys_s)) t = CpuTime{};
    return t;
}

void read_comparison_fields(const Node &n, RunResult &r) {
    r.group = n.str_or("group", r.test);
    r.variant = n.str_or("variant", r.transport.empty() ? r.test : r.transport);
    if (n.has("compare")) {
        const Node list = n.child("compare");
        for (size_t i = 0, k = list.size(false); i < k; ++i)
            r.compare.push_back(list.element(i).str());
    }
    r.repeat = unsigned(n.count_or("repeat", 1));
    r.repeats = unsigned(n.count_or("repeats", 1));
    if (n.has("cpu") && !n.child("cpu").json().is_null()) {
        const Node cpu = n.child("cpu");
        cpu.size(true);
        r.cpu_client = read_cpu_side(cpu, "client");
        r.cpu_server = read_cpu_side(cpu, "server");
    }
}

// Matrix mode (schema 2): the ranks and each run's pair.
RunPair read_pair(const Node &n) {
    RunPair p;
    p.client = int(n.at("client").count());
    p.server = int(n.at("server").count());
    p.client_node = n.str_or("client_node", "");
    p.server_node = n.str_or("server_node", "");
    p.round = unsigned(n.count_or("round", 0));
    return p;
}

MatrixInfo read_matrix(const Node &n) {
    MatrixInfo m;
    m.pattern = n.at("pattern").str();
    if (n.has("one_pair_at_a_time")) {
        const Node b = n.child("one_pair_at_a_time");
        if (!b.json().is_boolean()) b.fail("expected a boolean");
        m.one_pair_at_a_time = b.json().get<bool>();
    }
    m.rounds = unsigned(n.count_or("rounds", 0));
    m.launcher = n.str_or("launcher", "");
    m.worst_links = unsigned(n.count_or("worst_links", MatrixInfo::kDefaultWorstLinks));
    if (m.worst_links < 1 || m.worst_links > MatrixInfo::kMaxWorstLinks)
        n.child("worst_links")
            .fail("expected an integer from 1 to " + std::to_string(MatrixInfo::kMaxWorstLinks));
    const Node ranks = n.at("ranks");
    for (size_t i = 0, k = ranks.size(false); i < k; ++i) {
        const Node r = ranks.element(i);
        m.ranks.push_back(
            {int(r.at("rank").count()), r.str_or("node", ""), r.str_or("address", "")});
    }
    return m;
}

std::string too_many(size_t count, const char *what, size_t limit) {
    return std::to_string(count) + " " + what + ": more than the " + std::to_string(limit) +
           " a results file may have";
}

// What the runs before this one held, for the bounds on a whole file.
struct ReadSoFar {
    size_t rows = 0;
    size_t expect_keys = 0;
};

// runs[].expect, by the rules of a scenario's; each run's keys count
// towards kMaxResultsExpectKeys.
Expectations read_run_expect(const Node &run, const std::string &name, ReadSoFar &so_far) {
    const Node expect = run.child("expect");
    const std::string where = run.where() + " (run '" + name + "')";
    Expected<Expectations> e = expectations_from_json(expect.json(), where);
    if (!e) throw ResultsError(e.error());
    so_far.expect_keys += e->metrics.size() + (e->link_fraction ? 1 : 0);
    if (so_far.expect_keys > kMaxResultsExpectKeys)
        throw ResultsError(
            where + ": " +
            too_many(so_far.expect_keys, "expect keys so far", kMaxResultsExpectKeys));
    return std::move(*e);
}

// The load a run was measured under: what ran, what it moved, its notes
// (its rows count toward the file's rows).
BackgroundLoad read_background(const Node &n, ReadSoFar &so_far) {
    BackgroundLoad b;
    b.test = n.at("test").str();
    b.transport = n.str_or("transport", "");
    b.flows = unsigned(std::min<uint64_t>(n.at("flows").count(), 1u << 20));
    if (n.has("Gb/sec") && !n.child("Gb/sec").json().is_null()) b.gbps = n.child("Gb/sec").number();
    if (n.has("rows")) {
        const Node rows = n.child("rows");
        const size_t k = rows.size(false);
        so_far.rows += k;
        if (so_far.rows > kMaxResultsRows)
            rows.fail(too_many(so_far.rows, "rows so far", kMaxResultsRows));
        for (size_t i = 0; i < k; ++i)
            b.rows.push_back(read_row(rows.element(i)));
    }
    if (n.has("notes")) {
        const Node notes = n.child("notes");
        for (size_t i = 0, k = notes.size(false); i < k; ++i)
            b.notes.push_back(notes.element(i).str());
    }
    return b;
}

RunResult read_run(const Node &n, ReadSoFar &so_far) {
    RunResult r;
    r.name = n.at("name").str();
    r.test = n.at("test").str();
    r.transport = n.str_or("transport", "");
    if (n.has("params")) {
        const Node params = n.child("params");
        params.size(true);
        for (const auto &item : params.json().items())
            r.params.emplace_back(item.key(), item.value().is_string()
                                                  ? item.value().get<std::string>()
                                                  : item.value().dump());
    }
    if (n.has("settings")) { // newer files only
        const Node settings = n.child("settings");
        settings.size(true);
        for (const auto &item : settings.json().items())
            if (item.value().is_string())
                r.settings.emplace_back(item.key(), item.value().get<std::string>());
    }
    read_status(n, r);
    r.wall_seconds = n.number_or("wall_seconds", 0);
    const Node rows = n.at("rows");
    const size_t k = rows.size(false);
    so_far.rows += k;
    if (so_far.rows > kMaxResultsRows)
        rows.fail(too_many(so_far.rows, "rows so far", kMaxResultsRows));
    for (size_t i = 0; i < k; ++i)
        r.rows.push_back(read_row(rows.element(i)));
    read_comparison_fields(n, r);
    if (n.has("pair")) r.pair = read_pair(n.child("pair"));
    // Informational, and absent from older files: read what is there.
    if (n.has("path")) r.path = run_path_from_json(n.child("path").json());
    if (n.has("rails")) r.rails = read_rails(n.child("rails"));
    if (n.has("pairs")) r.pairs = read_rails(n.child("pairs"));
    if (n.has("pairs_series")) r.pairs_series = n.at("pairs_series").str();
    if (n.has("counters")) r.counters = run_counters_from_json(n.child("counters").json());
    if (n.has("expect")) r.expect = read_run_expect(n, r.name, so_far);
    if (n.has("expect_inherited")) r.expect.inherited = n.child("expect_inherited").json() == true;
    if (n.has("background")) r.background = read_background(n.child("background"), so_far);
    return r;
}

RunContext read_context(const Node &n) {
    RunContext c;
    c.hostname = n.at("host").str();
    c.kernel = n.str_or("kernel", "");
    if (n.has("cpu")) {
        const Node cpu = n.child("cpu");
        c.cpu_model = cpu.str_or("model", "");
        c.cpu_count = unsigned(cpu.count_or("count", 0));
    }
    c.cmdbench_version = n.str_or("cmdbench_version", "");
    if (n.has("plugins")) {
        const Node plugins = n.child("plugins");
        for (size_t i = 0, k = plugins.size(false); i < k; ++i) {
            const Node p = plugins.element(i);
            PluginInfo info{p.at("name").str(), p.str_or("version", ""), p.str_or("file", "")};
            const std::string abi = p.str_or("abi", "0.0");
            if (std::sscanf(abi.c_str(), "%u.%u", &info.abi_major, &info.abi_minor) != 2)
                p.child("abi").fail("expected \"<major>.<minor>\", got \"" + abi + "\"");
            c.plugins.push_back(info);
        }
    }
    if (n.has("scenario")) {
        const Node s = n.child("scenario");
        c.scenario_path = s.str_or("path", "");
        c.scenario_text = s.str_or("text", "");
    }
    c.start_time = n.str_or("start_time", "");
    if (n.has("notes")) {
        const Node notes = n.child("notes");
        for (size_t i = 0, k = notes.size(false); i < k; ++i)
            c.notes.push_back(notes.element(i).str());
    }
    return c;
}

// nlohmann reports how many bytes it read, the last being the bad one.
std::string where(const std::string &text, size_t bytes_read) {
    const size_t bad = std::min(bytes_read ? bytes_read - 1 : 0, text.size());
    size_t line = 1, column = 1;
    for (size_t i = 0; i < bad; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return std::to_string(line) + ":" + std::to_string(column);
}

std::string parse_reason(const std::string &what) {
    // "[json.exception.parse_error.101] parse error at line 1, column 2: <reason>"
    const size_t at = what.find("parse error");
    const size_t colon = what.find(": ", at == std::string::npos ? 0 : at);
    return colon == std::string::npos ? what : what.substr(colon + 2);
}

// "[json.exception.out_of_range.406] number overflow ..." without the tag.
std::string reason(const std::string &what) {
    const size_t tag_end = what.rfind("] ", what.find(' '));
    return tag_end == std::string::npos ? what : what.substr(tag_end + 2);
}

// Real results nest about six deep; the bound keeps a hostile file from
// recursing through dump() and the destructor until the stack runs out.
constexpr int kMaxJsonDepth = 64;

// Checked on the text before parsing, not in nlohmann's parser callback:
// with a callback its DOM builder rescans the parent container at every
// object's end, quadratic in an array of objects (400,000 `{}` took minutes).
// Brackets inside strings are skipped; in text that is not JSON the count
// may be off, which the parse then refuses anyway.
void refuse_deep_nesting(const std::string &text) {
    int depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth)
                throw ResultsError("nesting deeper than " + std::to_string(kMaxJsonDepth) +
                                   " levels");
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
}

// What a matrix document's pairs share (matrix.shared) is put back into
// each; a pair's entry is about 2.5 times smaller without it. Put back more
// than this many times the document's size, the document is one made to
// expand (a meaning of a megabyte shared by every metric of every pair).
constexpr size_t kMaxMatrixExpansion = 8;

// The document's runs (`text_bytes`: the document's size); a matrix
// document's pairs with what they share put back first.
std::vector<RunResult> read_runs(const Node &root, const std::string &name, size_t text_bytes) {
    const Node runs = root.at("runs");
    const size_t k = runs.size(false);
    if (k > kMaxResultsRuns) runs.fail(too_many(k, "runs", kMaxResultsRuns));
    const Json &doc = root.json();
    std::optional<MatrixSharedIndex> shared;
    if (doc.contains("matrix") && doc["matrix"].is_object() && doc["matrix"].contains("shared"))
        shared.emplace(doc["matrix"]["shared"]);
    std::vector<RunResult> out;
    ReadSoFar so_far;
    size_t copied = 0; // bytes of matrix.shared put back so far
    for (size_t i = 0; i < k; ++i) {
        const Node entry = runs.element(i);
        if (!shared) {
            out.push_back(read_run(entry, so_far));
            continue;
        }
        Json whole;
        try {
            whole = shared->expand(entry.json(), copied);
        } catch (const std::invalid_argument &e) {
            entry.fail(e.what());
        }
        if (copied > kMaxMatrixExpansion * text_bytes)
            entry.fail("what the pairs share (matrix.shared) put back into them comes to " +
                       std::to_string(copied) + " bytes so far: more than " +
                       std::to_string(kMaxMatrixExpansion) + " times the document's " +
                       std::to_string(text_bytes));
        out.push_back(read_run(Node(whole, "runs[" + std::to_string(i) + "]", name), so_far));
    }
    return out;
}

} // namespace

Report parse_results(const std::string &text, const std::string &name) {
    Json doc;
    try {
        refuse_deep_nesting(text);
        doc = parse_json_document(text);
    } catch (const Json::parse_error &e) {
        throw ResultsError(name + ":" + where(text, e.byte) +
                           ": not valid JSON: " + parse_reason(e.what()));
    } catch (const ResultsError &e) { // from refuse_deep_nesting
        throw ResultsError(name + ": " + e.what());
    } catch (const Json::exception &e) {
        // A number out of double's range (1e400): not a parse_error in nlohmann.
        throw ResultsError(name + ": not a usable JSON document: " + reason(e.what()));
    }
    const Node root(doc, "", name);
    if (!doc.is_object() || !doc.contains("schema") || !doc["schema"].is_string() ||
        doc["schema"] != "cmdbench-results")
        root.fail("not a cmdbench results file (expected \"schema\": \"cmdbench-results\")");
    const uint64_t version = root.at("schema_version").count();
    if (version > uint64_t(kResultsSchemaVersion))
        root.fail("schema_version " + std::to_string(version) +
                  " is newer than this cmdbench reads (" + std::to_string(kResultsSchemaVersion) +
                  "): use a newer cmdbench");
    if (version < 1) root.fail("schema_version 0 is not a released format");

    Report report;
    report.context = read_context(root.at("context"));
    report.baseline = root.str_or("baseline", kDefaultBaseline);
    if (root.has("matrix")) report.matrix = read_matrix(root.child("matrix"));
    if (root.has("comparison")) {
        const Node cmp = root.child("comparison");
        if (cmp.has("order")) report.run_order = run_order_from(cmp.child("order").str());
        const double limit = cmp.number_or("spread_limit", kDefaultSpreadLimit);
        if (!(limit >= kMinSpreadLimit && limit <= kMaxSpreadLimit)) {
            char range[64];
            std::snprintf(range, sizeof range, "expected a number from %g to %g", kMinSpreadLimit,
                          kMaxSpreadLimit);
            cmp.child("spread_limit").fail(range);
        }
        report.spread_limit = limit;
    }
    report.runs = read_runs(root, name, text.size());
    return report;
}

RunResult parse_run_line(const std::string &text, const std::string &name) {
    Json doc;
    try {
        doc = parse_json_document(text);
    } catch (const Json::exception &e) {
        throw ResultsError(name + ": not valid JSON: " + reason(e.what()));
    }
    ReadSoFar so_far;
    return read_run(Node(doc, "", name), so_far);
}

Report read_results_file(const std::string &path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw ResultsError(path + ": cannot read: is a directory");
    const Expected<std::string> text = read_input_file(path, kMaxResultsBytes);
    if (!text) throw ResultsError(path + ": " + text.error());
    return parse_results(*text, path);
}

} // namespace cmdbench

// Reporters: rstream number formats, JSON, CSV and table output.
#include "cmdbench/host/machine/run_context.hpp"
#include "cmdbench/plugin.h"
#include "cmdbench/report/matrix/matrix_shared.hpp"
#include "cmdbench/report/old_metric_names.hpp"
#include "cmdbench/report/report.hpp"
#include "cmdbench/report/report_format.hpp"
#include "cmdbench/report/results_reader.hpp"
#include "cmdbench/report/run_counters.hpp"
#include "cmdbench/report/run_totals.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

using namespace cmdbench;

namespace {

// As the host reads rows from a plugin that declared no meanings: their
// old names give them theirs (old_metric_names.hpp).
std::vector<Row> as_read(std::vector<Row> rows) {
    for (Row &row : rows)
        give_old_name_meanings(row);
    return rows;
}

Row rstream_row(const std::string &name, double size, double xfers, double iters, double secs) {
    Row r;
    r.name = name;
    const double total = 2 * size * xfers * iters;
    const double us = secs * 1e6;
    r.metrics = {{"bytes", size, CMDBENCH_UNIT_BYTES},
                 {"xfers", xfers, CMDBENCH_UNIT_COUNT},
                 {"iters", iters, CMDBENCH_UNIT_COUNT},
                 {"total", total, CMDBENCH_UNIT_BYTES},
                 {"time", secs, CMDBENCH_UNIT_SECONDS},
                 {"Gb/sec", total * 8 / (us * 1000), CMDBENCH_UNIT_GBPS},
                 {"usec/xfer", us / iters / (xfers * 2), CMDBENCH_UNIT_USEC}};
    return r;
}

HistSummary summary_of(std::initializer_list<uint64_t> values) {
    Histogram h;
    for (uint64_t v : values)
        h.record(v);
    return h.summary();
}

// 2000 ns, 9998 times 3000 ns, 900000 ns: enough samples for every
// percentile, down to p99.99 (10,000).
HistSummary wide_summary() {
    Histogram h;
    h.record(2000);
    for (int i = 0; i < 9998; ++i)
        h.record(3000);
    h.record(900000);
    return h.summary();
}

Report sample_report() {
    Report rep;
    rep.context = collect_context();
    rep.context.plugins = {{"stream", "0.1.0", "/lib/cmdbench-stream.so", 1, 0}};
    rep.context.scenario_path = "configs/x.toml";
    rep.context.scenario_text = "[[run]]\ntest = \"pingpong\"\n";

    RunResult run;
    run.name = "lat, \"quoted\"";
    run.test = "pingpong";
    run.transport = "tcp";
    run.params = {{"sizes", "[64, 4096]"}, {"nonblock", "true"}};
    run.wall_seconds = 1.25;
    Row row = rstream_row("64_lat", 64, 1, 100000, 0.324);
    Histogram rtt;
    for (uint64_t v = 1000; v < 200000; v += 17) // 11,706: enough for p99.99
        rtt.record(v);
    row.hists = {{"rtt", rtt.summary()}};
    run.rows = {row, rstream_row("4k_lat", 4096, 1, 10000, 0.062)};
    run.rows[1].hists = {{"rtt", wide_summary()}};
    run.rows = as_read(run.rows);
    run.group = "latency";
    run.variant = "tcp";
    run.compare = {"latency", "cpu"};
    run.cpu_client = {0.25, 0.5};
    run.cpu_server = {0.125, 0.375};
    rep.runs.push_back(run);
    rep.baseline = "rsocket";

    RunResult skipped;
    skipped.name = "rdma";
    skipped.test = "pingpong";
    skipped.transport = "rsocket";
    skipped.status = RunStatus::Skipped;
    skipped.error = "no RDMA device";
    skipped.group = "latency";
    skipped.variant = "rsocket";
    skipped.repeat = 3;
    skipped.repeats = 5;
    rep.runs.push_back(skipped);
    return rep;
}

// Split CSV text into records of fields (RFC 4180, CRLF line ends).
std::vector<std::vector<std::string>> parse_csv(const std::string &text) {
    std::vector<std::vector<std::string>> records(1, std::vector<std::string>(1));
    bool quoted = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        auto &field = records.back().back();
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            records.back().emplace_back();
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            ++i;
            records.emplace_back(1);
        } else {
            field += c;
        }
    }
    if (records.back().size() == 1 && records.back()[0].empty()) records.pop_back();
    return records;
}

} // namespace

TEST_CASE("size_str follows rstream's size rule") {
    // rstream's own size and count labels
    CHECK(size_str(64) == "64");
    CHECK(size_str(1000) == "1000");
    CHECK(size_str(1024) == "1k");
    CHECK(size_str(1536) == "1.5k");
    CHECK(size_str(12288) == "12k");
    CHECK(size_str(1048576) == "1m");
    CHECK(size_str(2000000) == "1.9m");
    CHECK(size_str(12800000) == "12m");
    CHECK(size_str(81920000) == "78m");
    CHECK(size_str(0) == "0");
    CHECK(size_str(1023) == "1023");
    CHECK(size_str(1100) == "1k"); // tenth digit truncated to 0: no decimal
    CHECK(size_str(1127) == "1.1k");
    CHECK(size_str(1LL << 30) == "1g");
    CHECK(size_str(2047.9) == "1.9k"); // fractional bytes are truncated first
}

TEST_CASE("size_str reproduces the size table labels and totals") {
    // rstream's standard suite: size, label, count, total label.
    struct Entry {
        double size;
        const char *label;
        double count;
        const char *total;
    };
    const Entry table[] = {
        {64, "64", 100000, "12m"},      {128, "128", 100000, "24m"},
        {192, "192", 100000, "36m"},    {256, "256", 100000, "48m"},
        {384, "384", 100000, "73m"},    {512, "512", 100000, "97m"},
        {768, "768", 100000, "146m"},   {1024, "1k", 10000, "19m"},
        {1536, "1.5k", 10000, "29m"},   {2048, "2k", 10000, "39m"},
        {3072, "3k", 10000, "58m"},     {4096, "4k", 10000, "78m"},
        {6144, "6k", 10000, "117m"},    {8192, "8k", 10000, "156m"},
        {12288, "12k", 10000, "234m"},  {16384, "16k", 10000, "312m"},
        {24576, "24k", 10000, "468m"},  {32768, "32k", 10000, "625m"},
        {49152, "48k", 10000, "937m"},  {65536, "64k", 1000, "125m"},
        {98304, "96k", 1000, "187m"},   {131072, "128k", 1000, "250m"},
        {196608, "192k", 1000, "375m"}, {262144, "256k", 1000, "500m"},
        {393216, "384k", 1000, "750m"}, {524288, "512k", 1000, "1000m"},
        {786432, "768k", 1000, "1.4g"}, {1048576, "1m", 100, "200m"},
        {1572864, "1.5m", 100, "300m"}, {2097152, "2m", 100, "400m"},
        {3145728, "3m", 100, "600m"},   {4194304, "4m", 100, "800m"},
        {6291456, "6m", 100, "1.1g"},
    };
    for (const auto &e : table) {
        INFO("size " << e.size);
        CHECK(size_str(e.size) == e.label);
        CHECK(size_str(2 * e.size * e.count) == e.total);
    }
}

TEST_CASE("count_str follows rstream's count rule") {
    CHECK(count_str(1) == "1");
    CHECK(count_str(100) == "100");
    CHECK(count_str(1000) == "1k");
    CHECK(count_str(1500) == "1k");
    CHECK(count_str(100000) == "100k");
    CHECK(count_str(999) == "999");
    CHECK(count_str(1999999) == "1m");
    CHECK(count_str(2500000000.0) == "2b");
    CHECK(count_str(0) == "0");
}

TEST_CASE("metric cells are formatted by unit") {
    // Bytes binary (Ki, Mi), counts and rates decimal (k, M): never one
    // letter for both; rounded to 3 significant digits, never truncated.
    CHECK(metric_cell(4096, CMDBENCH_UNIT_BYTES) == "4Ki");
    CHECK(metric_cell(1000, CMDBENCH_UNIT_BYTES) == "1000");
    CHECK(metric_cell(286720, CMDBENCH_UNIT_BYTES) == "280Ki");
    CHECK(metric_cell(1.5 * 1048576, CMDBENCH_UNIT_BYTES) == "1.5Mi");
    CHECK(metric_cell(100000, CMDBENCH_UNIT_COUNT) == "100k");
    CHECK(metric_cell(2240, CMDBENCH_UNIT_COUNT) == "2240");
    CHECK(metric_cell(22480, CMDBENCH_UNIT_COUNT) == "22.5k");
    CHECK(metric_cell(999999, CMDBENCH_UNIT_COUNT) == "1M");
    CHECK(metric_cell(10000, CMDBENCH_UNIT_COUNT) == "10k");
    CHECK(metric_cell(2500000000.0, CMDBENCH_UNIT_COUNT) == "2.5G");
    // Small rates keep significant digits: a 2-byte bandwidth is not 0.00.
    CHECK(metric_cell(0.00312, CMDBENCH_UNIT_GBPS) == "0.0031");
    CHECK(metric_cell(0.04, CMDBENCH_UNIT_USEC) == "0.040");
    CHECK(metric_cell(0.324, CMDBENCH_UNIT_SECONDS) == "0.32s");
    CHECK(metric_cell(10.5678, CMDBENCH_UNIT_GBPS) == "10.57");
    CHECK(metric_cell(1.625, CMDBENCH_UNIT_USEC) == "1.62"); // printf rounding of binary 1.625
    CHECK(metric_cell(1234, CMDBENCH_UNIT_PER_SEC) == "1234");
    CHECK(metric_cell(123456, CMDBENCH_UNIT_PER_SEC) == "123k");
    CHECK(metric_cell(2345678, CMDBENCH_UNIT_PER_SEC) == "2.35M");
    CHECK(metric_cell(0.5, CMDBENCH_UNIT_PER_SEC) == "0.500");
    CHECK(metric_cell(0.5, CMDBENCH_UNIT_PLAIN) == "0.5");
    CHECK(std::string(unit_label(CMDBENCH_UNIT_GBPS)) == "Gb/s");
    CHECK(exact_str(100000) == "100000");
    CHECK(exact_str(0.324) == "0.324");
    CHECK(exact_str(0) == "0");
    CHECK(exact_str(1e-9) == "1e-09");
    CHECK(exact_str(1e300) == "1e+300");
    CHECK(std::stod(exact_str(0.1 + 0.2)) == 0.1 + 0.2);
    CHECK(std::string(unit_label(CMDBENCH_UNIT_PLAIN)).empty());
}

TEST_CASE("run status names") {
    CHECK(std::string(to_string(RunStatus::Ok)) == "ok");
    CHECK(std::string(to_string(RunStatus::Failed)) == "failed");
    CHECK(std::string(to_string(RunStatus::Skipped)) == "skipped");
    CHECK(std::string(to_string(RunStatus::TimedOut)) == "timeout");
    CHECK(std::string(to_string(RunStatus::Interrupted)) == "interrupted");
}

TEST_CASE("context describes this machine") {
    const RunContext c = collect_context();
    CHECK_FALSE(c.hostname.empty());
    CHECK_FALSE(c.kernel.empty());
    CHECK_FALSE(c.cpu_model.empty());
    CHECK(c.cpu_count >= 1);
    REQUIRE(c.start_time.size() == 20); // 2026-11-29T12:00:00Z
    CHECK(c.start_time[4] == '-');
    CHECK(c.start_time[10] == 'T');
    CHECK(c.start_time[19] == 'Z');
}

TEST_CASE("JSON output: the runs written one by one read as one dump of the whole") {
    // write_json writes each run on its own (no tree of them all): the text
    // must be what dumping the whole document at once gives.
    auto same_as_whole = [](const Report &rep) {
        std::ostringstream out;
        write_json(out, rep);
        const auto doc = nlohmann::ordered_json::parse(out.str());
        CHECK(out.str() == doc.dump(2) + "\n");
        return doc;
    };
    Report rep = sample_report();
    // A run named like the text that stands for the runs, and strings with
    // newlines and quotes: none may pose as the document's `runs` key.
    rep.runs[0].name = "cmdbench-runs-placeholder-4f1c";
    rep.runs[1].error = "line one\n  \"runs\": \"x\"\nline three";
    rep.context.hostname = "\n  \"runs\": ";
    const auto doc = same_as_whole(rep);
    REQUIRE(doc.at("runs").size() == 2);
    CHECK(doc.at("runs").at(0).at("name") == "cmdbench-runs-placeholder-4f1c");
    CHECK(doc.at("runs").at(1).at("error") == "line one\n  \"runs\": \"x\"\nline three");
    rep.runs.clear();
    CHECK(same_as_whole(rep).at("runs").empty());
}

TEST_CASE("JSON output: a matrix's runs are a line each, what they share written once") {
    Report rep = sample_report();
    rep.matrix = MatrixInfo{};
    rep.matrix->pattern = "all-pairs";
    rep.runs[1].name = rep.runs[0].name; // two pairs of one run
    // The same parameters in another order (a pair from another rank was
    // read and written again): still the run's.
    rep.runs[1].params.assign(rep.runs[0].params.rbegin(), rep.runs[0].params.rend());
    SidePath a, b;
    a.address = "10.0.0.1";
    a.interface.name = "eth1";
    b.address = "10.0.0.2";
    b.interface.name = "eth1";
    rep.runs[0].path.client = a;
    rep.runs[0].path.server = b;
    rep.runs[1].path.client = b;
    rep.runs[1].path.server = a;
    rep.runs[0].pair = RunPair{0, 1, "a", "b", 1};
    rep.runs[1].pair = RunPair{1, 0, "b", "a", 1};
    rep.runs[1].error = "line one\n  \"runs\": \"x\"\nline three";
    std::ostringstream out;
    write_json(out, rep);
    const std::string text = out.str();
    const auto doc = nlohmann::ordered_json::parse(text);
    const auto &shared = doc.at("matrix").at("shared");
    // The run's parameters and both path ends are written once ...
    CHECK(shared.at("runs").size() == 1);
    CHECK(shared.at("paths").size() == 2);
    for (const auto &run : doc.at("runs")) {
        CHECK_FALSE(run.contains("params"));
        CHECK(run.at("path").at("client").is_number());
    }
    // ... and each entry, expanded, is what the document without them holds.
    Report plain = rep;
    plain.matrix.reset();
    std::ostringstream whole;
    write_json(whole, plain);
    const auto expected = nlohmann::ordered_json::parse(whole.str()).at("runs");
    REQUIRE(doc.at("runs").size() == 2);
    for (size_t i = 0; i < 2; ++i)
        CHECK(nlohmann::json::parse(expand_matrix_run(doc.at("runs")[i], shared).dump()) ==
              nlohmann::json::parse(expected[i].dump())); // key order aside
    // The reader puts them back.
    const Report back = parse_results(text, "m.json");
    REQUIRE(back.runs.size() == 2);
    using Params = std::map<std::string, std::string>;
    CHECK(Params(back.runs[1].params.begin(), back.runs[1].params.end()) ==
          Params(rep.runs[1].params.begin(), rep.runs[1].params.end()));
    REQUIRE(back.runs[1].path.client);
    CHECK(back.runs[1].path.client->address == "10.0.0.2");
    CHECK(back.runs[1].path.server->interface.name == "eth1");
    // One line per run, each a JSON object by itself.
    std::istringstream lines(text);
    std::string line;
    int run_lines = 0;
    while (std::getline(lines, line)) {
        if (line.rfind("    {", 0) != 0) continue;
        if (line.back() == ',') line.pop_back();
        const auto run = nlohmann::json::parse(line);
        CHECK(run.at("pair").at("client") == run_lines);
        ++run_lines;
    }
    CHECK(run_lines == 2);
}

TEST_CASE("JSON input: a matrix entry referring to a path end that is not there is refused") {
    const std::string doc = R"({"schema": "cmdbench-results", "schema_version": 4,
      "context": {"host": "h"},
      "matrix": {"pattern": "ring", "ranks": [{"rank": 0}, {"rank": 1}],
                 "shared": {"runs": {}, "paths": [{"address": "10.0.0.1"}]}},
      "runs": [{"name": "n", "test": "t", "status": "ok", "rows": [],
                "path": {"client": 0, "server": 7}}]})";
    try {
        parse_results(doc, "x.json");
        FAIL("accepted");
    } catch (const ResultsError &e) {
        CHECK(std::string(e.what()) ==
              "x.json: runs[0]: path.server: 7 is not an index of matrix.shared.paths (1 "
              "entries)");
    }
}

TEST_CASE("JSON output parses back with schema, context and runs") {
    std::ostringstream out;
    write_json(out, sample_report());
    const auto doc = nlohmann::json::parse(out.str());
    CHECK(doc.at("schema") == "cmdbench-results");
    CHECK(doc.at("schema_version") == kResultsSchemaVersion);

    const auto &ctx = doc.at("context");
    CHECK_FALSE(ctx.at("host").get<std::string>().empty());
    CHECK_FALSE(ctx.at("kernel").get<std::string>().empty());
    CHECK(ctx.at("cpu").at("count").get<unsigned>() >= 1);
    CHECK(ctx.at("cpu").contains("model"));
    CHECK(ctx.at("plugins").at(0).at("abi") == "1.0");
    CHECK(ctx.at("plugins").at(0).at("file") == "/lib/cmdbench-stream.so");
    CHECK(ctx.at("scenario").at("text") == "[[run]]\ntest = \"pingpong\"\n");
    CHECK(ctx.at("start_time").get<std::string>().back() == 'Z');

    const auto &runs = doc.at("runs");
    REQUIRE(runs.size() == 2);
    CHECK(runs[0].at("name") == "lat, \"quoted\"");
    CHECK(runs[0].at("params").at("sizes") == "[64, 4096]");
    CHECK(runs[0].at("status") == "ok");
    CHECK(runs[0].at("wall_seconds") == 1.25);
    CHECK(runs[1].at("status") == "skipped");
    CHECK(runs[1].at("error") == "no RDMA device");
    CHECK(runs[1].at("rows").empty());

    // Comparison keys and CPU time.
    CHECK(doc.at("baseline") == "rsocket");
    CHECK(runs[0].at("group") == "latency");
    CHECK(runs[0].at("variant") == "tcp");
    CHECK(runs[0].at("compare") == nlohmann::json::array({"latency", "cpu"}));
    CHECK(runs[0].at("repeat") == 1);
    CHECK(runs[0].at("repeats") == 1);
    CHECK(runs[0].at("cpu").at("client").at("user_s") == 0.25);
    CHECK(runs[0].at("cpu").at("client").at("sys_s") == 0.5);
    CHECK(runs[0].at("cpu").at("server").at("user_s") == 0.125);
    CHECK(runs[0].at("cpu").at("server").at("sys_s") == 0.375);
    // A latency run has no CPU per GB (its bytes are a by-product of the
    // round trips); no connections counted.
    CHECK(runs[0].at("cpu_per_gb_s").is_null());
    CHECK(runs[0].at("cpu_per_conn_us").is_null());
    CHECK(runs[1].at("compare") == nlohmann::json::array());
    CHECK(runs[1].at("repeat") == 3);
    CHECK(runs[1].at("repeats") == 5);
    CHECK(runs[1].at("cpu").at("client").is_null());
    CHECK(runs[1].at("cpu").at("server").is_null());
    CHECK(runs[1].at("cpu_per_gb_s").is_null());

    const auto &row = runs[0].at("rows").at(0);
    CHECK(row.at("name") == "64_lat");
    CHECK(row.at("metrics").at("bytes").at("value") == 64);
    CHECK(row.at("metrics").at("bytes").at("unit") == "bytes");
    CHECK(row.at("metrics").at("Gb/sec").at("unit") == "Gb/s");
    CHECK(row.at("metrics").at("usec/xfer").at("unit") == "us");
    // Metric order is the order the test reported them in.
    const auto ordered = nlohmann::ordered_json::parse(out.str());
    std::vector<std::string> keys;
    for (const auto &item : ordered["runs"][0]["rows"][0]["metrics"].items())
        keys.push_back(item.key());
    CHECK(keys == std::vector<std::string>{"bytes", "xfers", "iters", "total", "time", "Gb/sec",
                                           "usec/xfer"});

    for (const auto &r : runs[0].at("rows")) {
        const auto &h = r.at("histograms").at("rtt");
        CHECK(h.at("unit") == "ns");
        const char *order[] = {"min", "p50", "p90", "p99", "p99_9", "p99_99", "max"};
        for (size_t i = 1; i < std::size(order); ++i)
            CHECK(h.at(order[i - 1]).get<uint64_t>() <= h.at(order[i]).get<uint64_t>());
        CHECK(h.at("count").get<uint64_t>() > 0);
        CHECK(h.at("mean").get<double>() >= h.at("min").get<double>());
    }
    CHECK(runs[0].at("rows").at(1).at("histograms").at("rtt").at("max") == 900000);
}

TEST_CASE("CSV has a header, one line per row and RFC 4180 quoting") {
    std::ostringstream out;
    write_csv(out, sample_report());
    const std::string text = out.str();
    // The run name holds a comma and quotes: quoted, quotes doubled.
    CHECK(text.find("\"lat, \"\"quoted\"\"\",pingpong,tcp,ok,64_lat,") != std::string::npos);

    const auto records = parse_csv(text);
    REQUIRE(records.size() == 4); // header, two rows, the skipped run
    const auto &header = records[0];
    REQUIRE(header.size() >= 20);
    const std::vector<std::string> fixed(header.begin(), header.begin() + 20);
    CHECK(fixed == std::vector<std::string>{"run",
                                            "test",
                                            "transport",
                                            "status",
                                            "row",
                                            "group",
                                            "variant",
                                            "repeat",
                                            "cpu_client_user_s",
                                            "cpu_client_sys_s",
                                            "cpu_server_user_s",
                                            "cpu_server_sys_s",
                                            "counters_retransmits",
                                            "counters_errors",
                                            "counters_congestion",
                                            "background_gbps",
                                            "client_rank",
                                            "client_node",
                                            "server_rank",
                                            "server_node"});
    CHECK(header[20] == "bytes");
    CHECK(std::find(header.begin(), header.end(), "rtt_p50_ns") != header.end());
    CHECK(std::find(header.begin(), header.end(), "rtt_p99_9_ns") != header.end());
    for (const auto &r : records)
        CHECK(r.size() == header.size());
    CHECK(records[1][0] == "lat, \"quoted\"");
    const std::vector<std::string> run_fields(records[1].begin() + 5, records[1].begin() + 12);
    CHECK(run_fields ==
          std::vector<std::string>{"latency", "tcp", "1", "0.25", "0.5", "0.125", "0.375"});
    // No counters recorded, no background, no matrix pair: empty, not 0.
    for (size_t col = 12; col < 20; ++col)
        CHECK(records[1][col].empty());
    CHECK(records[1][20] == "64");
    CHECK(records[1][22] == "100000"); // iters
    CHECK(records[1][24] == "0.324");  // time
    CHECK(records[2][4] == "4k_lat");
    const auto max_col = std::find(header.begin(), header.end(), "rtt_max_ns") - header.begin();
    CHECK(records[2][max_col] == "900000");
    CHECK(records[3][0] == "rdma");
    CHECK(records[3][3] == "skipped");
    CHECK(records[3][4].empty());
    // The skipped run: its repetition, and no CPU figures.
    CHECK(records[3][7] == "3");
    for (size_t col = 8; col < 16; ++col)
        CHECK(records[3][col].empty());
}

TEST_CASE("CSV: the counter classes' sums and the background's Gb/s, as the table shows them") {
    Report report = sample_report();
    report.runs.resize(1);
    RunResult &run = report.runs[0];
    // Two machines: both sides count. Traffic and "other" have no column.
    run.counters.client = SideCounters{{"tcp", std::map<std::string, int64_t>{{"RetransSegs", 5},
                                                                              {"TCPFastRetrans", 2},
                                                                              {"InSegs", 900},
                                                                              {"OutRsts", 1}}},
                                       {"net eth0", std::nullopt}};
    run.counters.server = SideCounters{
        {"rdma rxe0/1", std::map<std::string, int64_t>{{"rcvd_rnr_err", 3}, {"rx_dropped", 0}}}};
    run.background = BackgroundLoad{};
    run.background->test = "throughput";
    run.background->transport = "tcp";
    run.background->flows = 2;
    run.background->gbps = 1.25;
    std::ostringstream out;
    write_csv(out, report);
    const auto records = parse_csv(out.str());
    REQUIRE(records.size() == 3);
    const std::vector<std::string> fields(records[1].begin() + 12, records[1].begin() + 16);
    CHECK(fields == std::vector<std::string>{"7", "0", "3", "1.25"});
    CHECK(records[2][12] == "7"); // every row of the run
    // The table's lines say the same sums.
    std::ostringstream table;
    write_table(table, report);
    CHECK(table.str().find("counters: retransmits +7: client tcp RetransSegs +5, client tcp "
                           "TCPFastRetrans +2") != std::string::npos);
    CHECK(table.str().find("counters: congestion +3: server rdma rxe0/1 rcvd_rnr_err +3") !=
          std::string::npos);
    CHECK(table.str().find("moved 1.250 Gb/s (the sum over flows)") != std::string::npos);
    // A background whose rows had no Gb/sec: an empty field.
    run.background->gbps.reset();
    std::ostringstream none;
    write_csv(none, report);
    CHECK(parse_csv(none.str())[1][15].empty());
}

TEST_CASE("table shows rstream's columns for an rstream-like run") {
    Report rep = sample_report();
    RunResult &run = rep.runs[0];
    for (auto &row : run.rows)
        row.hists.clear();
    std::ostringstream out;
    write_table_run(out, run);
    std::istringstream lines(out.str());
    std::string title, header, first, second;
    std::getline(lines, title);
    std::getline(lines, header);
    std::getline(lines, first);
    std::getline(lines, second);
    CHECK(title == "== lat, \"quoted\": test=pingpong transport=tcp");
    // rstream's header, then the bandwidth in MiB/s (perftest's unit).
    CHECK(header == "name      bytes   xfers   iters   total       time     Gb/sec    usec/xfer"
                    "  MiB/sec");
    // rstream's columns and widths, cmdbench's numbers: Mi, not m.
    CHECK(first == "64_lat    64      1       100k    12.2Mi      0.32s      0.32       1.62"
                   "      37.68");
    CHECK(second.substr(0, 42) == "4k_lat    4Ki     1       10k     78.1Mi  ");
}

TEST_CASE("table appends histogram columns in microseconds") {
    const Report rep = sample_report();
    std::ostringstream out;
    write_table_run(out, rep.runs[0]);
    std::istringstream lines(out.str());
    std::string title, header, first, second;
    std::getline(lines, title);
    std::getline(lines, header);
    std::getline(lines, first);
    std::getline(lines, second);
    CHECK(header.rfind("name      bytes   xfers", 0) == 0);
    // A round trip's columns are one-way latency, half of it, and say so.
    for (const char *col : {"min(us,1-way)", "p50(us,1-way)", "p90(us,1-way)", "p99(us,1-way)",
                            "p99.9(us,1-way)", "max(us,1-way)"})
        CHECK(header.find(col) != std::string::npos);
    // Second row: round trips of 2000, 3000 ... 900000 ns; max is exact,
    // right-aligned under its header.
    const auto max_end = header.find("max(us,1-way)") + std::string("max(us,1-way)").size();
    CHECK(second.size() == max_end);
    CHECK(second.substr(second.size() - 6) == "450.00");
    CHECK(second.find("  1.00  ") != std::string::npos); // min = 2000 ns round trip
}

// A 1-iteration row (tcp-loopback's bandwidth rows): one sample gives a
// median but no p90, p99 or p99.9, whatever the reporter.
TEST_CASE("reporters show percentiles of too few samples as absent") {
    Report rep = sample_report();
    rep.runs.resize(1);
    RunResult &run = rep.runs[0];
    run.rows.resize(1);
    run.rows[0].hists = {{"rtt", summary_of({357691000})}};
    run.rows.push_back(rstream_row("4k_lat", 4096, 1, 20, 0.01));
    Histogram twenty_samples;
    for (uint64_t v = 1000; v <= 20000; v += 1000)
        twenty_samples.record(v);
    const uint64_t p90 = twenty_samples.percentile(90);
    run.rows[1].hists = {{"rtt", twenty_samples.summary()}};

    std::ostringstream table;
    write_table_run(table, run);
    std::istringstream lines(table.str());
    std::string title, header, one, twenty;
    std::getline(lines, title);
    std::getline(lines, header);
    std::getline(lines, one);
    std::getline(lines, twenty);
    INFO(table.str());
    // The last six columns, after rstream's: min p50 p90 p99 p99.9 max.
    auto cells = [](const std::string &line) {
        std::istringstream in(line);
        std::vector<std::string> out;
        for (std::string cell; in >> cell;)
            out.push_back(cell);
        return std::vector<std::string>(out.end() - std::min<size_t>(6, out.size()), out.end());
    };
    CHECK(cells(header) == std::vector<std::string>{"min(us)", "p50(us)", "p90(us)", "p99(us)",
                                                    "p99.9(us)", "max(us)"});
    CHECK(cells(one) ==
          std::vector<std::string>{"357691.00", "357691.00", "-", "-", "-", "357691.00"});
    // 20 samples: p90 (needs 10) is a figure, p99 (needs 100) is not.
    const auto c20 = cells(twenty);
    REQUIRE(c20.size() == 6);
    CHECK(c20[2] == ns_as_us_str(double(p90)));
    CHECK(c20[3] == "-");
    CHECK(c20[4] == "-");

    std::ostringstream json;
    write_json(json, rep);
    const auto doc = nlohmann::json::parse(json.str());
    const auto &h1 = doc.at("runs").at(0).at("rows").at(0).at("histograms").at("rtt");
    CHECK(h1.at("count") == 1);
    CHECK(h1.at("min") == 357691000);
    CHECK(h1.at("max") == 357691000);
    CHECK(h1.at("p50") == 357691000);
    for (const char *key : {"p90", "p99", "p99_9", "p99_99"}) {
        INFO(key);
        REQUIRE(h1.contains(key)); // present, null: the layout does not change
        CHECK(h1.at(key).is_null());
    }
    const auto &h20 = doc.at("runs").at(0).at("rows").at(1).at("histograms").at("rtt");
    CHECK(h20.at("p90") == p90);
    CHECK(h20.at("p99").is_null());

    std::ostringstream csv;
    write_csv(csv, rep);
    const auto records = parse_csv(csv.str());
    REQUIRE(records.size() == 3);
    const auto &head = records[0];
    auto col = [&](const char *name) {
        const auto it = std::find(head.begin(), head.end(), name);
        REQUIRE(it != head.end());
        return size_t(it - head.begin());
    };
    CHECK(records[1][col("rtt_count")] == "1");
    CHECK(records[1][col("rtt_p50_ns")] == "357691000");
    CHECK(records[1][col("rtt_max_ns")] == "357691000");
    for (const char *name : {"rtt_p90_ns", "rtt_p99_ns", "rtt_p99_9_ns", "rtt_p99_99_ns"})
        CHECK(records[1][col(name)].empty());
    CHECK(records[2][col("rtt_p90_ns")] == std::to_string(p90));
    CHECK(records[2][col("rtt_p99_ns")].empty());
}

TEST_CASE("generic table for other metrics") {
    RunResult run;
    run.name = "steps";
    run.test = "sock-steps";
    Row a;
    a.name = "connect";
    a.metrics = {{"conns", 1000, CMDBENCH_UNIT_COUNT}, {"rate", 52345, CMDBENCH_UNIT_PER_SEC}};
    Row b;
    b.name = "a-much-longer-step-name";
    b.metrics = {{"conns", 10, CMDBENCH_UNIT_COUNT}, {"extra", 0.25, CMDBENCH_UNIT_PLAIN}};
    run.rows = {a, b};
    std::ostringstream out;
    write_table_run(out, run);
    const std::string expected = "== steps: test=sock-steps\n"
                                 "name                     conns   rate  extra\n"
                                 "connect                   1000  52.3k      -\n"
                                 "a-much-longer-step-name     10      -   0.25\n";
    CHECK(out.str() == expected);
}

TEST_CASE("failed or skipped run without rows is one line with the reason") {
    const Report rep = sample_report();
    std::ostringstream out;
    write_table_run(out, rep.runs[1]);
    CHECK(out.str() ==
          "== rdma: test=pingpong transport=rsocket [rep 3/5] [skipped: no RDMA device]\n");

    std::ostringstream all;
    write_table(all, rep);
    CHECK(all.str().find("== lat, \"quoted\"") == 0);
    CHECK(all.str().find("\n\n== rdma:") != std::string::npos);
}

TEST_CASE("table: the repetition in the heading, the CPU line after the rows") {
    RunResult run;
    run.name = "bw";
    run.test = "throughput";
    run.transport = "tcp";
    run.repeat = 2;
    run.repeats = 3;
    Row row;
    row.name = "64k";
    row.metrics = {{"total", 4e9, CMDBENCH_UNIT_BYTES}};
    run.rows = as_read({row});
    run.cpu_client = {0.21, 0.48};
    run.cpu_server = {0.19, 0.51};
    std::ostringstream out;
    write_table_run(out, run);
    CHECK(out.str() == "== bw: test=throughput transport=tcp [rep 2/3]\n"
                       "name   total\n"
                       "64k   3.73Gi\n"
                       "cpu: client 0.21 s user 0.48 s sys, server 0.19 s user 0.51 s sys; "
                       "0.35 CPU-s/GB\n");

    // Per connection when the rows count connections; only the sides measured.
    run.repeats = 1;
    run.rows[0].metrics = {{"conns", 1000, CMDBENCH_UNIT_COUNT}};
    run.rows = as_read(run.rows);
    run.cpu_server = CpuTime{};
    std::ostringstream client_only;
    write_table_run(client_only, run);
    CHECK(client_only.str() == "== bw: test=throughput transport=tcp\n"
                               "name  conns\n"
                               "64k    1000\n"
                               "cpu: client 0.21 s user 0.48 s sys\n");
    run.cpu_server = {0.3, 0.01};
    std::ostringstream per_conn;
    write_table_run(per_conn, run);
    CHECK(per_conn.str().find("; 1000.0 CPU-us/conn\n") != std::string::npos);
}

TEST_CASE("run totals: bytes, connections and CPU seconds") {
    RunResult run;
    CHECK_FALSE(run_bytes(run));
    CHECK_FALSE(run_connections(run));
    CHECK_FALSE(run_cpu_seconds(run));

    Row a, b, c;
    a.metrics = {{"total", 1000, CMDBENCH_UNIT_BYTES}, {"conns", 4, CMDBENCH_UNIT_PLAIN}};
    // A "total" in another unit is not bytes; a non-finite one is no figure.
    b.metrics = {{"total", 7, CMDBENCH_UNIT_COUNT},
                 {"total", 500, CMDBENCH_UNIT_BYTES},
                 {"conns", 16, CMDBENCH_UNIT_COUNT}};
    c.metrics = {{"total", std::nan(""), CMDBENCH_UNIT_BYTES}, {"conns", 9, CMDBENCH_UNIT_PLAIN}};
    run.rows = as_read({a, b, c});
    CHECK(run_bytes(run) == 1500.0);
    CHECK(run_connections(run) == 16.0);

    // Both sides, or nothing.
    run.cpu_client = {0.5, 0.25};
    CHECK_FALSE(run_cpu_seconds(run));
    CHECK_FALSE(run_cpu_per_gb(run));
    run.cpu_server = {1.0, 0.75};
    CHECK(run_cpu_seconds(run) == 2.5);
    CHECK(*run_cpu_per_gb(run) == Approx(2.5 / 1.5e-6));
    CHECK(*run_cpu_per_conn_us(run) == Approx(2.5e6 / 16));

    // Nothing moved: no per-GB figure rather than infinity.
    run.rows = as_read({Row{"x", {{"total", 0, CMDBENCH_UNIT_BYTES}}, {}}});
    CHECK(run_bytes(run) == 0.0);
    CHECK_FALSE(run_cpu_per_gb(run));
    CHECK_FALSE(run_cpu_per_conn_us(run));
}

namespace {

// A verbs-lat row as the plugin reports it: WRITE halves its round trip into
// one-way latency (usec/xfer), READ keeps the whole operation.
RunResult verbs_lat_run(bool write) {
    const MetricMeaning one_way{CMDBENCH_KIND_LATENCY, CMDBENCH_BETTER_LOWER,
                                CMDBENCH_METRIC_DETAIL | CMDBENCH_METRIC_ONE_WAY};
    const MetricMeaning round_trip{CMDBENCH_KIND_LATENCY, CMDBENCH_BETTER_LOWER,
                                   CMDBENCH_METRIC_DETAIL | CMDBENCH_METRIC_ROUND_TRIP};
    RunResult run;
    run.name = write ? "lat-write" : "lat-read";
    run.test = "verbs-lat";
    run.settings = {{"inline_size", "236"}, {"tx_depth", "128"}};
    Row row;
    row.name = "64_lat";
    row.metrics = {
        {"bytes", 64, CMDBENCH_UNIT_BYTES, {}},
        {"usec/xfer", write ? 11.5 : 23.0, CMDBENCH_UNIT_USEC, write ? one_way : round_trip},
        {"usec/rtt", 23.0, CMDBENCH_UNIT_USEC, round_trip}};
    row.hists = {{"rtt",
                  wide_summary(),
                  {CMDBENCH_KIND_LATENCY, CMDBENCH_BETTER_LOWER,
                   write ? uint32_t(CMDBENCH_METRIC_ROUND_TRIP) : 0u}}};
    run.rows = {row};
    return run;
}

} // namespace

TEST_CASE("table: verbs latency columns say one way or round trip, settings head the run") {
    std::ostringstream write, read;
    write_table_run(write, verbs_lat_run(true));
    write_table_run(read, verbs_lat_run(false));
    INFO(write.str() << read.str());
    // The settings line comes before the table.
    CHECK(write.str().find("settings: inline_size 236, tx_depth 128\nname ") != std::string::npos);
    // WRITE: one-way, halved (3000 ns round trips: p50 1.50 us one way).
    CHECK(write.str().find("usec/xfer(1-way)  usec/rtt  min(us,1-way)  p50(us,1-way)") !=
          std::string::npos);
    CHECK(write.str().find("11.50     23.00           1.00           1.50") != std::string::npos);
    // READ: the whole operation, under the histogram's name.
    CHECK(read.str().find("usec/xfer(rtt)  usec/rtt  min(us,rtt)  p50(us,rtt)") !=
          std::string::npos);
    CHECK(read.str().find("23.00     23.00         2.00         3.00") != std::string::npos);
}

TEST_CASE("JSON: a run's settings are written and read back") {
    Report rep;
    rep.runs = {verbs_lat_run(true)};
    std::ostringstream out;
    write_json(out, rep);
    const auto doc = nlohmann::json::parse(out.str());
    CHECK(doc.at("runs").at(0).at("settings") ==
          nlohmann::json({{"inline_size", "236"}, {"tx_depth", "128"}}));
    const Report back = parse_results(out.str(), "mem");
    REQUIRE(back.runs.size() == 1);
    CHECK(back.runs[0].settings == rep.runs[0].settings);
}

// Results JSON read back: a round trip through write_json, the comparison
// fields and their defaults, and a clear message for every kind of bad file.
#include "cmdbench/plugin.h"
#include "cmdbench/report/expect_rules.hpp"
#include "cmdbench/report/histogram.hpp"
#include "cmdbench/report/report.hpp"
#include "cmdbench/report/results_reader.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <unistd.h>

using namespace cmdbench;

namespace {

Report sample_report() {
    Report rep;
    rep.context.hostname = "alpha";
    rep.context.kernel = "6.1.0";
    rep.context.cpu_model = "Some CPU @ 3GHz";
    rep.context.cpu_count = 8;
    rep.context.cmdbench_version = "0.1.0";
    rep.context.plugins = {{"stream", "0.1.0", "/lib/cmdbench-stream.so", 1, 2}};
    rep.context.scenario_path = "configs/x.toml";
    rep.context.scenario_text = "[[run]]\ntest = \"pingpong\"\n";
    rep.context.start_time = "2026-11-29T12:00:00Z";
    rep.baseline = "tcp-nodelay";

    RunResult run;
    run.name = "lat";
    run.test = "pingpong";
    run.transport = "tcp";
    run.group = "latency";
    run.variant = "tcp-nodelay";
    run.compare = {"latency", "cpu"};
    run.repeat = 2;
    run.repeats = 3;
    run.cpu_client = {0.125, 0.5};
    run.cpu_server = {1.75, 0.0625};
    run.params = {{"sizes", "[64, 4096]"}, {"verify", "true"}};
    run.wall_seconds = 1.25;
    Row row;
    row.name = "64_lat";
    // Keys out of alphabetical order: the reader keeps the test's order.
    row.metrics = {{"bytes", 64, CMDBENCH_UNIT_BYTES},
                   {"time", 0.324, CMDBENCH_UNIT_SECONDS},
                   {"Gb/sec", 0.1, CMDBENCH_UNIT_GBPS},
                   {"usec/xfer", 1.62, CMDBENCH_UNIT_USEC},
                   {"msgs/s", 617283.9, CMDBENCH_UNIT_PER_SEC},
                   {"iters", 100000, CMDBENCH_UNIT_COUNT},
                   {"odd", std::numeric_limits<double>::infinity(), CMDBENCH_UNIT_PLAIN}};
    HistSummary h;
    h.count = 100000;
    h.min = 2900;
    h.max = 90000;
    h.mean = 3241.5;
    h.stddev = 120.25;
    h.p50 = 3200;
    h.p90 = 3400;
    h.p99 = 4100;
    h.p999 = 9000;
    h.p9999 = 50000;
    row.hists = {{"rtt", h}};
    run.rows = {row};
    rep.runs.push_back(run);

    RunResult skipped;
    skipped.name = "rdma";
    skipped.test = "pingpong";
    skipped.transport = "rsocket";
    skipped.group = "pingpong";
    skipped.variant = "rsocket";
    skipped.status = RunStatus::Skipped;
    skipped.error = "no RDMA device";
    rep.runs.push_back(skipped);
    return rep;
}

std::string json_of(const Report &r) {
    std::ostringstream out;
    write_json(out, r);
    return out.str();
}

std::string error_of(const std::string &text) {
    try {
        parse_results(text, "x.json");
    } catch (const ResultsError &e) {
        return e.what();
    }
    return "(accepted)";
}

const char *kMinimal = R"({"schema": "cmdbench-results", "schema_version": 1,
  "context": {"host": "h"},
  "runs": [{"name": "n", "test": "sock-steps", "transport": "", "status": "ok", "rows": []}]})";

} // namespace

TEST_CASE("results reader: write_json then read back gives the same report") {
    const Report in = sample_report();
    const Report out = parse_results(json_of(in), "mem");
    CHECK(out.context.hostname == in.context.hostname);
    CHECK(out.context.kernel == in.context.kernel);
    CHECK(out.context.cpu_model == in.context.cpu_model);
    CHECK(out.context.cpu_count == 8);
    CHECK(out.context.cmdbench_version == "0.1.0");
    REQUIRE(out.context.plugins.size() == 1);
    CHECK(out.context.plugins[0].file == "/lib/cmdbench-stream.so");
    CHECK(out.context.plugins[0].abi_major == 1);
    CHECK(out.context.plugins[0].abi_minor == 2);
    CHECK(out.context.scenario_path == in.context.scenario_path);
    CHECK(out.context.scenario_text == in.context.scenario_text);
    CHECK(out.context.start_time == in.context.start_time);
    CHECK(out.baseline == "tcp-nodelay");

    REQUIRE(out.runs.size() == 2);
    for (size_t i = 0; i < 2; ++i) {
        const RunResult &a = in.runs[i], &b = out.runs[i];
        CHECK(b.name == a.name);
        CHECK(b.test == a.test);
        CHECK(b.transport == a.transport);
        CHECK(b.params == a.params);
        CHECK(b.status == a.status);
        CHECK(b.error == a.error);
        CHECK(b.wall_seconds == a.wall_seconds);
        CHECK(b.group == a.group);
        CHECK(b.variant == a.variant);
        CHECK(b.compare == a.compare);
        CHECK(b.repeat == a.repeat);
        CHECK(b.repeats == a.repeats);
        CHECK(b.cpu_client.measured() == a.cpu_client.measured());
        CHECK(b.cpu_client.user_s == a.cpu_client.user_s);
        CHECK(b.cpu_client.sys_s == a.cpu_client.sys_s);
        CHECK(b.cpu_server.user_s == a.cpu_server.user_s);
        CHECK(b.cpu_server.sys_s == a.cpu_server.sys_s);
        REQUIRE(b.rows.size() == a.rows.size());
    }
    const Row &a = in.runs[0].rows[0], &b = out.runs[0].rows[0];
    CHECK(b.name == a.name);
    REQUIRE(b.metrics.size() == a.metrics.size());
    for (size_t i = 0; i < a.metrics.size(); ++i) {
        INFO(a.metrics[i].key);
        CHECK(b.metrics[i].key == a.metrics[i].key);
        CHECK(b.metrics[i].unit == a.metrics[i].unit);
        if (std::isfinite(a.metrics[i].value))
            CHECK(b.metrics[i].value == a.metrics[i].value); // exact: shortest round-trip text
        else
            CHECK(std::isnan(b.metrics[i].value)); // written as null
    }
    REQUIRE(b.hists.size() == 1);
    const HistSummary &x = a.hists[0].summary, &y = b.hists[0].summary;
    CHECK(b.hists[0].key == "rtt");
    CHECK(y.count == x.count);
    CHECK(y.min == x.min);
    CHECK(y.max == x.max);
    CHECK(y.mean == x.mean);
    CHECK(y.stddev == x.stddev);
    CHECK(y.p50 == x.p50);
    CHECK(y.p90 == x.p90);
    CHECK(y.p99 == x.p99);
    CHECK(y.p999 == x.p999);
    CHECK(y.p9999 == x.p9999);
}

TEST_CASE("results reader: percentiles of too few samples read back absent") {
    Report in = sample_report();
    Histogram one;
    one.record(357691000);
    in.runs[0].rows[0].hists.push_back({"burst", one.summary()});
    const Report out = parse_results(json_of(in), "mem");
    REQUIRE(out.runs[0].rows[0].hists.size() == 2);
    const HistSummary &s = out.runs[0].rows[0].hists[1].summary;
    CHECK(s.count == 1);
    CHECK(s.min == 357691000);
    CHECK(s.max == 357691000);
    CHECK(s.p50 == uint64_t{357691000});
    CHECK_FALSE(s.p90);
    CHECK_FALSE(s.p99);
    CHECK_FALSE(s.p999);
    CHECK_FALSE(s.p9999);
}

// Files of schema 1 and 2 hold every percentile as a number, of however few
// samples: read by the same rule as a fresh run.
TEST_CASE("results reader: older files' percentiles of too few samples read as absent") {
    const auto hist_of = [](const std::string &version, const std::string &hist) {
        const std::string text = R"({"schema": "cmdbench-results", "schema_version": )" + version +
                                 R"(, "context": {"host": "h"},
          "runs": [{"name": "n", "test": "pingpong", "transport": "tcp", "status": "ok",
                    "rows": [{"name": "64_lat", "metrics": {}, "histograms": {"rtt": )" +
                                 hist + "}}]}]}";
        const Report r = parse_results(text, "old.json");
        return r.runs.at(0).rows.at(0).hists.at(0).summary;
    };
    for (const char *version : {"1", "2"}) {
        INFO("schema_version " << version);
        const HistSummary few = hist_of(version, R"({"count": 5, "min": 10, "mean": 30,
            "stddev": 1, "p50": 30, "p90": 50, "p99": 50, "p99_9": 50, "p99_99": 50, "max": 50})");
        CHECK(few.count == 5);
        CHECK(few.max == 50);
        CHECK(few.p50 == uint64_t{30});
        CHECK_FALSE(few.p90);
        CHECK_FALSE(few.p99);
        CHECK_FALSE(few.p999);
        const HistSummary enough = hist_of(version, R"({"count": 150, "min": 10, "mean": 30,
            "stddev": 1, "p50": 30, "p90": 40, "p99": 45, "p99_9": 50, "p99_99": 50, "max": 50})");
        CHECK(enough.p90 == uint64_t{40});
        CHECK(enough.p99 == uint64_t{45});
        CHECK_FALSE(enough.p999); // 150 samples: a p99.9 needs 1000
    }
    // The oldest files lack p90, p99_9 and p99_99: taken from p99 and max, as
    // before, when the count is enough for them.
    const HistSummary oldest = hist_of("1", R"({"count": 20000, "min": 10, "p50": 30,
        "p99": 45, "max": 50})");
    CHECK(oldest.p90 == uint64_t{45});
    CHECK(oldest.p999 == uint64_t{50});
    CHECK(oldest.p9999 == uint64_t{50});
    // A percentile is a number or null; anything else is refused.
    CHECK(error_of(R"({"schema": "cmdbench-results", "schema_version": 3,
      "context": {"host": "h"}, "runs": [{"name": "n", "test": "t", "status": "ok",
      "rows": [{"name": "r", "metrics": {}, "histograms": {"rtt": {"count": 1, "min": 1,
      "max": 1, "p50": 1, "p99": "slow"}}}]}]})") ==
          "x.json: runs[0].rows[0].histograms.rtt.p99: expected a non-negative integer, got a "
          "string");
}

TEST_CASE("results reader: comparison fields, and their defaults in older files") {
    Report old = parse_results(kMinimal, "old.json");
    CHECK(old.baseline == "tcp");
    REQUIRE(old.runs.size() == 1);
    CHECK(old.runs[0].group == "sock-steps");
    CHECK(old.runs[0].variant == "sock-steps"); // no transport: the test
    CHECK(old.runs[0].repeats == 1);
    CHECK_FALSE(old.runs[0].cpu_client.measured());

    const std::string text = R"({"schema": "cmdbench-results", "schema_version": 1,
      "baseline": "rdma", "context": {"host": "h"},
      "runs": [{"name": "n", "test": "pingpong", "transport": "tcp", "status": "ok", "rows": [],
                "group": "lat", "variant": "tcp-nodelay", "compare": ["latency", "cpu"],
                "repeat": 2, "repeats": 3,
                "cpu": {"client": {"user_s": 0.5, "sys_s": 0.25}, "server": null}},
               {"name": "m", "test": "pingpong", "transport": "tcp", "status": "ok", "rows": [],
                "cpu": null}]})";
    Report r = parse_results(text, "new.json");
    CHECK(r.baseline == "rdma");
    const RunResult &a = r.runs[0];
    CHECK(a.group == "lat");
    CHECK(a.variant == "tcp-nodelay");
    CHECK(a.compare == std::vector<std::string>{"latency", "cpu"});
    CHECK(a.repeat == 2);
    CHECK(a.repeats == 3);
    CHECK(a.cpu_client.user_s == 0.5);
    CHECK(a.cpu_client.sys_s == 0.25);
    CHECK_FALSE(a.cpu_server.measured());
    CHECK(r.runs[1].variant == "tcp");
    CHECK_FALSE(r.runs[1].cpu_client.measured());
}

TEST_CASE("results reader: an unknown status is read as a failure that keeps its name") {
    std::string text = kMinimal;
    text.replace(text.find("\"ok\""), 4, "\"lost\"");
    const Report r = parse_results(text, "x.json");
    CHECK(r.runs[0].status == RunStatus::Failed);
    CHECK(r.runs[0].error == "status 'lost'");
}

TEST_CASE("results reader: bad documents are refused with where and why") {
    CHECK_THAT(error_of("{\n  \"schema\": \"cmdbench-results\",\n  oops\n}"),
               Catch::StartsWith("x.json:3:3: not valid JSON: "));
    CHECK_THAT(error_of(""), Catch::StartsWith("x.json:1:1: not valid JSON: "));
    CHECK(error_of(R"({"schema": "other"})") ==
          "x.json: not a cmdbench results file (expected \"schema\": \"cmdbench-results\")");
    CHECK(error_of("[1, 2]") ==
          "x.json: not a cmdbench results file (expected \"schema\": \"cmdbench-results\")");

    std::string newer = kMinimal;
    newer.replace(newer.find("\"schema_version\": 1"), 19, "\"schema_version\": 7");
    CHECK(error_of(newer) ==
          "x.json: schema_version 7 is newer than this cmdbench reads (4): use a newer cmdbench");

    std::string no_status = kMinimal;
    no_status.replace(no_status.find("\"status\": \"ok\", "), 16, "");
    CHECK(error_of(no_status) == "x.json: runs[0]: missing required field 'status'");

    std::string bad_type = kMinimal;
    bad_type.replace(bad_type.find("\"rows\": []"), 10, "\"rows\": {}");
    CHECK(error_of(bad_type) == "x.json: runs[0].rows: expected an array, got an object");

    const std::string bad_metric = R"({"schema": "cmdbench-results", "schema_version": 1,
      "context": {"host": "h"}, "runs": [{"name": "n", "test": "t", "status": "ok",
      "rows": [{"name": "r", "metrics": {"Gb/sec": {"value": "fast"}}}]}]})";
    CHECK(error_of(bad_metric) ==
          "x.json: runs[0].rows[0].metrics.Gb/sec.value: expected a number, got a string");
    CHECK(error_of(R"({"schema": "cmdbench-results", "schema_version": 1, "runs": []})") ==
          "x.json: missing required field 'context'");
}

TEST_CASE("results reader: nesting is counted on the text, outside strings") {
    const auto nested = [](size_t depth) {
        return std::string(depth, '[') + std::string(depth, ']');
    };
    // 64 levels are allowed (and refused for what the document is), 65 are not.
    CHECK(error_of(nested(64)) ==
          "x.json: not a cmdbench results file (expected \"schema\": \"cmdbench-results\")");
    CHECK(error_of(nested(65)) == "x.json: nesting deeper than 64 levels");
    CHECK(error_of("[" + nested(64) + "}") == "x.json: nesting deeper than 64 levels");
    // Brackets in a string, after an escaped quote, are text.
    std::string text = kMinimal;
    const std::string brackets = R"(\"\\)" + std::string(100, '[') + std::string(100, '{');
    text.replace(text.find("\"status\": \"ok\", "), 16,
                 "\"status\": \"ok\", \"error\": \"" + brackets + "\", ");
    CHECK(parse_results(text, "x.json").runs[0].error ==
          "\"\\" + std::string(100, '[') + std::string(100, '{'));
}

TEST_CASE("results reader: files that cannot be read") {
    CHECK_THROWS_WITH(read_results_file("/nonexistent/r.json"),
                      "/nonexistent/r.json: cannot read: No such file or directory");
    CHECK_THROWS_WITH(read_results_file("/tmp"), "/tmp: cannot read: is a directory");
    char path[] = "/tmp/cmdbench-reader-XXXXXX";
    const int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    close(fd);
    std::ofstream(path) << json_of(sample_report());
    CHECK(read_results_file(path).runs.size() == 2);
    unlink(path);
}

TEST_CASE("results reader: a key given twice keeps its first place and its last value") {
    // Past 16 keys an object's keys are indexed: both ways must agree with
    // what nlohmann's own parse does.
    for (const int keys : {3, 40}) {
        INFO(keys << " keys");
        std::string metrics;
        for (int i = 0; i < keys; ++i)
            metrics += "\"m" + std::to_string(i) + "\": {\"value\": " + std::to_string(i) + "}, ";
        metrics += R"("m1": {"value": 100}, "last": {"value": 7})";
        const Report r = parse_results(R"({"schema": "cmdbench-results", "schema_version": 1,
          "context": {"host": "h"}, "runs": [{"name": "n", "test": "t", "status": "ok",
          "rows": [{"name": "r", "metrics": {)" +
                                           metrics + "}}]}]}",
                                       "x.json");
        const auto &m = r.runs[0].rows[0].metrics;
        REQUIRE(m.size() == size_t(keys) + 1);
        CHECK(m[1].key == "m1");
        CHECK(m[1].value == 100);
        CHECK(m.back().key == "last");
    }
}

// A run's `expect` is read by the rules a scenario's is (expect_rules.hpp):
// what the scenario loader refuses, compare refuses too, naming the run.
TEST_CASE("results reader: expectations are checked as a scenario's are") {
    const auto with_expect = [](const std::string &expect) {
        return R"({"schema": "cmdbench-results", "schema_version": 1,
          "context": {"host": "h"}, "runs": [{"name": "ok", "test": "t", "status": "ok",
          "rows": []}, {"name": "lat", "test": "t", "status": "ok", "rows": [],
          "expect": )" +
               expect + "}]}";
    };
    const std::string at = "x.json: runs[1] (run 'lat'): ";
    CHECK(error_of(with_expect(R"({"": {"max": 20}})")) ==
          at + "an empty key in 'expect' (name a metric, e.g. latency_p99, or link_fraction)");
    CHECK(error_of(with_expect(R"({"latency_p99": {"max": "20us"}})")) ==
          at + "'expect.latency_p99.max' expects a number, got a string");
    CHECK(error_of(with_expect(R"({"bandwidth": {"min_ratio": -1}})")) ==
          at + "'expect.bandwidth.min_ratio' must be above 0, got -1");
    CHECK(error_of(with_expect(R"({"link_fraction": 0})")) ==
          at + "'expect.link_fraction' must be above 0, got 0");
    CHECK(error_of(with_expect(R"({"link_fraction": null})")) ==
          at + "'expect.link_fraction' expects a number, got null");
    CHECK(error_of(with_expect(R"({"bandwidth": 5})")) ==
          at + "'expect.bandwidth' expects a table of bounds, e.g. { max = 20 } (keys: min, "
               "max, min_ratio, max_ratio), got a number");
    CHECK(error_of(with_expect(R"({"bandwidth": {}})")) ==
          at + "'expect.bandwidth' has no bound (keys: min, max, min_ratio, max_ratio)");
    CHECK(error_of(with_expect(R"({"bandwidth": {"mni": 1}})")) ==
          at + "unknown bound 'mni' in 'expect.bandwidth' (keys: min, max, min_ratio, max_ratio)");
    CHECK(error_of(with_expect(R"({"bandwidth": {"min": 5, "max": 1}})")) ==
          at + "'expect.bandwidth': min 5 is above max 1");
    CHECK(error_of(with_expect(R"({"b\u001bw": {"min": 1}})")) ==
          at + "the key 'b\\x1bw' in 'expect' has control characters or is not UTF-8");
    CHECK(error_of(with_expect("[1]")) ==
          at + "'expect' expects a table, e.g. expect = { link_fraction = 0.9 }, got an array");
    // What a run writes reads back whole.
    const Report r = parse_results(
        with_expect(R"({"link_fraction": 0.9, "bandwidth": {"min": 1, "max_ratio": 2}})"),
        "x.json");
    REQUIRE(r.runs[1].expect.metrics.size() == 1);
    CHECK(r.runs[1].expect.link_fraction == 0.9);
    CHECK(r.runs[1].expect.metrics[0].second.max_ratio == 2);
}

TEST_CASE("results reader: expect keys are bounded per run and in all") {
    std::string keys;
    for (size_t i = 0; i <= kMaxExpectKeys; ++i)
        keys += (i ? ", \"m" : "\"m") + std::to_string(i) + "\": {\"min\": 1}";
    const auto run = [](const std::string &name, const std::string &expect) {
        return R"({"name": ")" + name + R"(", "test": "t", "status": "ok", "rows": [],
          "expect": {)" +
               expect + "}}";
    };
    const auto file = [](const std::string &runs) {
        return R"({"schema": "cmdbench-results", "schema_version": 1,
          "context": {"host": "h"}, "runs": [)" +
               runs + "]}";
    };
    CHECK(error_of(file(run("wide", keys))) ==
          "x.json: runs[0] (run 'wide'): 'expect' has 65 keys: more than the 64 one run's "
          "expectations may have");
    // 64 keys a run: the file's bound is met after kMaxResultsExpectKeys / 64 runs.
    const std::string most = keys.substr(0, keys.rfind(", \"m"));
    const size_t runs_allowed = kMaxResultsExpectKeys / kMaxExpectKeys;
    std::string runs;
    for (size_t i = 0; i <= runs_allowed; ++i)
        runs += (i ? "," : "") + run("r", most);
    CHECK(error_of(file(runs)) == "x.json: runs[" + std::to_string(runs_allowed) + "] (run 'r'): " +
                                      std::to_string((runs_allowed + 1) * kMaxExpectKeys) +
                                      " expect keys so far: more than the 250000 a results "
                                      "file may have");
}

// What a matrix document's pairs share is put back into each pair: at most
// 8 times the document's size, so a small file cannot expand into gigabytes
// (a megabyte's unit shared by every metric of every pair).
TEST_CASE("results reader: a matrix document expands to a bounded size") {
    const auto doc = [](size_t unit_bytes, int pairs) {
        std::string runs;
        for (int i = 0; i < pairs; ++i)
            runs += std::string(i ? "," : "") + R"({"name": "lat", "test": "t", "status": "ok",
              "rows": [{"name": "r", "metrics": {"m": {"value": 1}}}],
              "pair": {"client": 0, "server": 1}})";
        return R"({"schema": "cmdbench-results", "schema_version": 3, "context": {"host": "h"},
          "matrix": {"pattern": "all", "ranks": [{"rank": 0}, {"rank": 1}],
            "shared": {"runs": {"lat": {"params": {}, "histograms": {},
              "metrics": {"m": {"unit": ")" +
               std::string(unit_bytes, 'u') + R"(", "kind": "rate"}}}}, "paths": []}},
          "runs": [)" +
               runs + "]}";
    };
    // Put back into each pair as read: a unit of 100 bytes, 2 pairs.
    const Report small = parse_results(doc(100, 2), "m.json");
    REQUIRE(small.runs.size() == 2);
    CHECK(small.runs[1].rows[0].metrics[0].meaning.kind == CMDBENCH_KIND_RATE);
    // 100,000 bytes put back into 100 pairs: 10 MB from a document of 100 KB.
    const std::string message = error_of(doc(100000, 100));
    CHECK_THAT(message, Catch::StartsWith("x.json: runs[9]: what the pairs share (matrix.shared) "
                                          "put back into them comes to "));
    CHECK_THAT(message, Catch::EndsWith(" bytes so far: more than 8 times the document's " +
                                        std::to_string(doc(100000, 100).size())));
}

// build_comparison on hand-made reports: metrics derived from rows, ratios,
// the repeat-spread verdicts, labels, baseline choice, and the line-up rules.
#include "cmdbench/plugin.h"
#include "cmdbench/report/compare/comparison.hpp"
#include "cmdbench/report/compare/comparison_json.hpp"
#include "cmdbench/report/histogram.hpp"
#include "cmdbench/report/old_metric_names.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace cmdbench;

namespace {

// As the host reads rows from a plugin that declared no meanings: their
// old names give them theirs (old_metric_names.hpp).
std::vector<Row> as_read(std::vector<Row> rows) {
    for (Row &row : rows)
        give_old_name_meanings(row);
    return rows;
}

// A pingpong latency row: rtt percentiles in ns, bandwidth in Gb/s.
Row pp_row(double size, uint64_t p50_ns, uint64_t p99_ns, double gbps, double xfers = 1) {
    Row r;
    r.name = std::to_string(int(size)) + (xfers == 1 ? "_lat" : "_bw");
    r.metrics = {{"bytes", size, CMDBENCH_UNIT_BYTES},
                 {"xfers", xfers, CMDBENCH_UNIT_COUNT},
                 {"total", size * 1000, CMDBENCH_UNIT_BYTES},
                 {"Gb/sec", gbps, CMDBENCH_UNIT_GBPS}};
    HistSummary h;
    h.count = 1000;
    h.min = p50_ns / 2;
    h.p50 = p50_ns;
    h.p90 = h.p99 = p99_ns;
    h.max = p99_ns;
    r.hists = {{"rtt", h}};
    return r;
}

RunResult run_of(const std::string &transport, std::vector<Row> rows,
                 const std::string &group = "pingpong") {
    RunResult r;
    r.name = group + "/" + transport;
    r.test = "pingpong";
    r.transport = transport;
    r.group = group;
    r.variant = transport;
    r.rows = as_read(std::move(rows));
    return r;
}

RunResult skipped(const std::string &transport, const std::string &why) {
    RunResult r = run_of(transport, {});
    r.status = RunStatus::Skipped;
    r.error = why;
    return r;
}

Report report_of(std::vector<RunResult> runs, const std::string &host = "hostA",
                 const std::string &baseline = "tcp") {
    Report rep;
    rep.context.hostname = host;
    rep.baseline = baseline;
    rep.runs = std::move(runs);
    return rep;
}

Comparison compare(const std::vector<const Report *> &reports, CompareOptions o = {}) {
    return build_comparison(reports, o);
}

const CompareRow &row(const Comparison &c, const std::string &item, CompareMetric m) {
    for (const auto &r : c.rows)
        if (r.item == item && r.metric == m) return r;
    FAIL("no row " << item << " " << to_string(m));
    throw 0;
}

bool has_row(const Comparison &c, const std::string &item, CompareMetric m) {
    for (const auto &r : c.rows)
        if (r.item == item && r.metric == m) return true;
    return false;
}

// A step row as cmtime's tables report it (libs/cmtime/src/step_host.cpp).
Row step_row(const std::string &name, double total_us, double us_per_conn, uint64_t timed,
             double conns = 100) {
    Row r;
    r.name = name;
    r.metrics = {{"avg/conn", total_us / conns, 0},
                 {"total(us)", total_us, 0},
                 {"us/conn", us_per_conn, 0},
                 {"sum(us)", us_per_conn * conns, 0},
                 {"max(us)", timed ? us_per_conn : 0, 0},
                 {"min(us)", 0, 0},
                 {"conns", conns, 0}};
    HistSummary h;
    h.count = timed;
    r.hists = {{"conn", h}};
    return r;
}

RunResult steps_run(const std::string &test, const std::string &variant, std::vector<Row> rows) {
    RunResult r;
    r.name = test;
    r.test = test;
    r.group = "connect";
    r.variant = variant;
    r.rows = as_read(std::move(rows));
    return r;
}

} // namespace

TEST_CASE("comparison: one-way latency, bandwidth and ratios to the baseline") {
    Report rep = report_of(
        {run_of("tcp", {pp_row(64, 20000, 40000, 0.5), pp_row(4096, 30000, 60000, 4)}),
         run_of("rsocket", {pp_row(64, 5000, 8000, 1.0), pp_row(4096, 10000, 12000, 16)})});
    Comparison c = compare({&rep});
    REQUIRE(c.columns == std::vector<std::string>{"tcp", "rsocket"});
    CHECK(c.baseline == 0);
    REQUIRE(c.rows.size() == 6); // 2 sizes x (p50, p99, bandwidth)
    CHECK(c.rows[0].item == "64_lat");
    CHECK(c.rows[0].metric == CompareMetric::LatencyP50);
    CHECK(c.rows[1].metric == CompareMetric::LatencyP99);
    CHECK(c.rows[2].metric == CompareMetric::Bandwidth);
    CHECK(c.rows[3].item == "4096_lat");
    CHECK(c.rows[3].size == 4096);

    const CompareRow &p50 = row(c, "64_lat", CompareMetric::LatencyP50);
    CHECK(p50.cells[0].value->median == Approx(10.0)); // half of 20 us
    CHECK(p50.cells[0].verdict == Verdict::Baseline);
    CHECK(p50.cells[1].value->median == Approx(2.5));
    CHECK(p50.cells[1].verdict == Verdict::Ratio);
    CHECK(*p50.cells[1].ratio == Approx(0.25));
    CHECK(*row(c, "64_lat", CompareMetric::LatencyP99).cells[1].ratio == Approx(0.2));
    CHECK(*row(c, "4096_lat", CompareMetric::Bandwidth).cells[1].ratio == Approx(4.0));
    CHECK(c.notes.empty());
}

// A plugin's latency histogram that is no round trip keeps its name and is
// not halved; one declared ROUND_TRIP is the built-in one-way latency.
// A variant whose row has 20 round trips has a p50 but no p99: that cell is
// missing, not compared, and the p99 row stays for the variants that have it.
TEST_CASE("comparison: a p99 of too few samples is a missing cell") {
    Histogram twenty;
    for (uint64_t ns = 9000; ns < 9020; ++ns)
        twenty.record(ns);
    Row few = pp_row(64, 0, 0, 1.0);
    few.hists[0].summary = twenty.summary();
    Report rep =
        report_of({run_of("tcp", {pp_row(64, 20000, 40000, 0.5)}), run_of("rsocket", {few})});
    Comparison c = compare({&rep});
    const CompareRow &p50 = row(c, "64_lat", CompareMetric::LatencyP50);
    REQUIRE(p50.cells[1].value);
    CHECK(p50.cells[1].verdict == Verdict::Ratio);
    const CompareRow &p99 = row(c, "64_lat", CompareMetric::LatencyP99);
    CHECK(p99.cells[0].verdict == Verdict::Baseline);
    CHECK_FALSE(p99.cells[1].value);
    CHECK_FALSE(p99.cells[1].ratio);
    CHECK(p99.cells[1].verdict == Verdict::Missing);

    // The baseline's too: no ratio for the other side.
    Report swapped =
        report_of({run_of("tcp", {few}), run_of("rsocket", {pp_row(64, 20000, 40000, 0.5)})});
    c = compare({&swapped});
    const CompareRow &back = row(c, "64_lat", CompareMetric::LatencyP99);
    CHECK_FALSE(back.cells[0].value);
    REQUIRE(back.cells[1].value);
    CHECK(back.cells[1].verdict == Verdict::Missing);
    CHECK_FALSE(back.cells[1].ratio);

    // When no variant has one, there is no p99 row at all.
    Report alone = report_of({run_of("tcp", {few})});
    c = compare({&alone});
    CHECK(has_row(c, "64_lat", CompareMetric::LatencyP50));
    CHECK_FALSE(has_row(c, "64_lat", CompareMetric::LatencyP99));
}

TEST_CASE("comparison: a declared latency histogram keeps its own name") {
    const auto burst_row = [](uint64_t p50_ns, uint32_t flags) {
        Row r;
        r.name = "small";
        r.metrics = {{"payload",
                      256,
                      CMDBENCH_UNIT_BYTES,
                      {CMDBENCH_KIND_BYTES, CMDBENCH_BETTER_NONE, CMDBENCH_METRIC_MESSAGE_SIZE}}};
        HistSummary h;
        h.count = 100; // enough for a p99
        h.min = p50_ns;
        h.p50 = p50_ns;
        h.max = 2 * p50_ns;
        h.p90 = h.p99 = h.max;
        r.hists = {{flags ? "ping" : "burst_time",
                    h,
                    {CMDBENCH_KIND_LATENCY, CMDBENCH_BETTER_LOWER, flags}}};
        return r;
    };
    Report rep = report_of({run_of("quick", {burst_row(4000, 0)}, "burst"),
                            run_of("slow", {burst_row(8000, 0)}, "burst")},
                           "h", "quick");
    Comparison c = compare({&rep});
    REQUIRE(c.rows.size() == 2);
    CHECK(c.rows[0].metric.id == "burst_time p50");
    CHECK(c.rows[0].metric.label == "burst_time p50");
    CHECK(c.rows[0].metric.title == "burst_time p50");
    CHECK(c.rows[0].metric.html_unit == "µs");
    CHECK(c.rows[0].metric.family == "latency");
    CHECK(c.rows[0].metric.chart != ChartStyle::Latency); // no "one-way latency" chart
    CHECK(c.rows[1].metric.id == "burst_time p99");
    CHECK(c.rows[0].cells[0].value->median == Approx(4.0)); // not halved
    CHECK(*c.rows[0].cells[1].ratio == Approx(2.0));

    Report rt = report_of({run_of("quick", {burst_row(4000, CMDBENCH_METRIC_ROUND_TRIP)}, "burst"),
                           run_of("slow", {burst_row(8000, CMDBENCH_METRIC_ROUND_TRIP)}, "burst")},
                          "h", "quick");
    c = compare({&rt});
    REQUIRE(c.rows.size() == 2);
    CHECK(c.rows[0].metric == CompareMetric::LatencyP50);
    CHECK(c.rows[0].metric.label == "1-way p50");
    CHECK(c.rows[0].cells[0].value->median == Approx(2.0)); // one way
}

TEST_CASE("comparison: a bandwidth row gives bandwidth but no latency") {
    Report rep = report_of({run_of("tcp", {pp_row(65536, 900000, 990000, 9, 1000)})});
    Comparison c = compare({&rep});
    REQUIRE(c.rows.size() == 1);
    CHECK(c.rows[0].metric == CompareMetric::Bandwidth);
}

TEST_CASE("comparison: the baseline is the option, else the report's, else the first column") {
    Report rep = report_of({run_of("tcp", {pp_row(64, 20000, 40000, 1)}),
                            run_of("rsocket", {pp_row(64, 10000, 20000, 2)})},
                           "hostA", "rsocket");
    Comparison c = compare({&rep});
    CHECK(c.baseline == 1);
    CHECK(*row(c, "64_lat", CompareMetric::LatencyP50).cells[0].ratio == Approx(2.0));

    CompareOptions o;
    o.baseline = "tcp";
    CHECK(compare({&rep}, o).baseline == 0);

    rep.baseline = "verbs"; // not a column: the first one
    CHECK(compare({&rep}).baseline == 0);

    o.baseline = "verbs";
    try {
        compare({&rep}, o);
        FAIL("an unknown --baseline was accepted");
    } catch (const CompareError &e) {
        CHECK_THAT(e.what(),
                   Catch::Contains("unknown baseline 'verbs'") && Catch::Contains("tcp, rsocket"));
    }
}

TEST_CASE("comparison: repeats give a spread, overlapping spreads are no clear difference") {
    auto repeats = [](const std::string &transport, std::vector<uint64_t> p50s) {
        std::vector<RunResult> runs;
        for (size_t i = 0; i < p50s.size(); ++i) {
            RunResult r = run_of(transport, {pp_row(64, p50s[i], p50s[i], 1)});
            r.repeat = unsigned(i + 1);
            r.repeats = unsigned(p50s.size());
            runs.push_back(r);
        }
        return runs;
    };
    auto with = [&](std::vector<uint64_t> other) {
        std::vector<RunResult> runs = repeats("tcp", {20000, 24000, 22000});
        for (auto &r : repeats("rsocket", other))
            runs.push_back(r);
        return report_of(runs);
    };

    Report overlap = with({23000, 30000, 26000});
    Comparison c = compare({&overlap});
    const CompareRow &r = row(c, "64_lat", CompareMetric::LatencyP50);
    REQUIRE(r.cells[0].value);
    CHECK(r.cells[0].value->n == 3);
    CHECK(r.cells[0].value->median == Approx(11.0));
    CHECK(r.cells[0].value->min == Approx(10.0));
    CHECK(r.cells[0].value->max == Approx(12.0));
    CHECK(r.cells[1].verdict == Verdict::NoClearDifference);
    CHECK(*r.cells[1].ratio == Approx(13.0 / 11.0));

    Report disjoint = with({50000, 52000});
    const Comparison dc = compare({&disjoint}); // `row` points into it
    const CompareRow &d = row(dc, "64_lat", CompareMetric::LatencyP50);
    CHECK(d.cells[1].value->n == 2);
    CHECK(d.cells[1].value->median == Approx(25.5)); // mean of the middle two
    CHECK(d.cells[1].verdict == Verdict::Ratio);
    CHECK(*d.cells[1].ratio == Approx(25.5 / 11.0));

    // One measurement has no spread to judge by: a plain ratio.
    Report single = with({23000});
    CHECK(row(compare({&single}), "64_lat", CompareMetric::LatencyP50).cells[1].verdict ==
          Verdict::Ratio);
}

TEST_CASE("comparison: a run that is not ok gives missing cells and a note") {
    Report rep = report_of(
        {run_of("tcp", {pp_row(64, 20000, 40000, 1)}), skipped("rsocket", "no RDMA device")});
    Comparison c = compare({&rep});
    REQUIRE(c.columns.size() == 2);
    const CompareRow &r = row(c, "64_lat", CompareMetric::LatencyP50);
    CHECK(r.cells[0].verdict == Verdict::Baseline);
    CHECK_FALSE(r.cells[1].value);
    CHECK(r.cells[1].verdict == Verdict::Missing);
    CHECK_FALSE(r.cells[1].ratio);
    REQUIRE(c.notes.size() == 1);
    CHECK(c.notes[0] == "rsocket pingpong: skipped: no RDMA device");

    // Repeats that failed alike share one note.
    std::vector<RunResult> runs{run_of("tcp", {pp_row(64, 20000, 40000, 1)})};
    for (unsigned k = 1; k <= 3; ++k) {
        RunResult r = k == 2 ? run_of("rsocket", {pp_row(64, 9000, 9000, 1)})
                             : skipped("rsocket", "no RDMA device");
        r.repeat = k;
        r.repeats = 3;
        runs.push_back(r);
    }
    Report three = report_of(runs);
    CHECK(compare({&three}).notes ==
          std::vector<std::string>{"rsocket pingpong (repeat 1, 3 of 3): skipped: no RDMA device"});
    runs.erase(runs.begin() + 2); // the ok repeat
    runs[1].repeats = runs[2].repeats = 2;
    runs[2].repeat = 2;
    three = report_of(runs);
    CHECK(compare({&three}).notes ==
          std::vector<std::string>{"rsocket pingpong (all 2 repeats): skipped: no RDMA device"});

    // A missing baseline leaves the other side's value without a ratio.
    rep.baseline = "rsocket";
    const Comparison mc = compare({&rep}); // `row` points into it
    const CompareRow &m = row(mc, "64_lat", CompareMetric::LatencyP50);
    CHECK(m.cells[0].value);
    CHECK(m.cells[0].verdict == Verdict::Missing);
    CHECK(m.cells[1].verdict == Verdict::Baseline);
}

TEST_CASE("comparison: labels of one variant from several files") {
    Report a = report_of({run_of("tcp", {pp_row(64, 20000, 40000, 1)})}, "alpha");
    Report b = report_of({run_of("tcp", {pp_row(64, 10000, 20000, 2)})}, "beta");
    Comparison c = compare({&a, &b});
    CHECK(c.columns == std::vector<std::string>{"tcp@alpha", "tcp@beta"});
    CHECK(c.baseline == 0); // "tcp" names the first tcp column
    CHECK(*row(c, "64_lat", CompareMetric::LatencyP50).cells[1].ratio == Approx(0.5));

    b.context.hostname = "alpha";
    Report d = report_of({run_of("tcp", {pp_row(64, 10000, 20000, 2)}),
                          run_of("rsocket", {pp_row(64, 5000, 9000, 3)})},
                         "gamma");
    c = compare({&a, &b, &d});
    CHECK(c.columns == std::vector<std::string>{"tcp#1", "tcp#2", "tcp#3", "rsocket"});

    CompareOptions o;
    o.baseline = "tcp#2";
    CHECK(compare({&a, &b, &d}, o).baseline == 1);
}

TEST_CASE("comparison: files whose sizes differ are refused unless common_only") {
    Report a = report_of({run_of("tcp", {pp_row(64, 2000, 4000, 1), pp_row(4096, 3000, 6000, 2)})},
                         "alpha");
    Report b = report_of(
        {run_of("rsocket", {pp_row(64, 1000, 2000, 1), pp_row(1024, 1500, 3000, 2)})}, "beta");
    try {
        compare({&a, &b});
        FAIL("mismatched sizes were compared");
    } catch (const CompareError &e) {
        const std::string what = e.what();
        CHECK_THAT(what, Catch::Contains("group 'pingpong'"));
        CHECK_THAT(what, Catch::Contains("input 1 (tcp) has 64, 4096"));
        CHECK_THAT(what, Catch::Contains("input 2 (rsocket) has 64, 1024"));
        CHECK_THAT(what, Catch::Contains("not in every input: 1024, 4096"));
    }
    CompareOptions o;
    o.common_only = true;
    for (Report *r : {&a, &b})
        for (auto &run : r->runs) {
            run.cpu_client = {0.1, 0.1};
            run.cpu_server = {0.1, 0.1};
        }
    // Latency runs: no CPU per GB (their bytes are a by-product of the round trips).
    CHECK_FALSE(has_row(compare({&a}), "whole run", CompareMetric::CpuPerGB));
    Comparison c = compare({&a, &b}, o);
    for (const auto &r : c.rows)
        CHECK(r.size == 64);
    CHECK(c.rows.size() == 3); // and no CPU per GB, which counted the other sizes too
    REQUIRE(c.notes.size() == 1);
    CHECK_THAT(c.notes[0],
               Catch::Contains("sizes 1024, 4096") && Catch::Contains("the whole-run figures"));
}

TEST_CASE("comparison: a group one file lacks is refused unless common_only") {
    Report a = report_of({run_of("tcp", {pp_row(64, 2000, 4000, 1)}),
                          run_of("tcp", {pp_row(65536, 9000, 9000, 8)}, "throughput")});
    Report b = report_of({run_of("rsocket", {pp_row(64, 1000, 2000, 1)})});
    CHECK_THROWS_WITH(compare({&a, &b}),
                      Catch::Contains("group 'throughput' is in input 1 (tcp) but not in input 2 "
                                      "(rsocket)"));
    CompareOptions o;
    o.common_only = true;
    Comparison c = compare({&a, &b}, o);
    for (const auto &r : c.rows)
        CHECK(r.group == "pingpong");
    REQUIRE(c.notes.size() == 1);
    CHECK_THAT(c.notes[0], Catch::StartsWith("left out: group 'throughput'"));
}

TEST_CASE("comparison: within one report, what one variant lacks is only a missing cell") {
    Report rep = report_of({run_of("tcp", {pp_row(64, 2000, 4000, 1), pp_row(4096, 3000, 6000, 2)}),
                            run_of("rsocket", {pp_row(64, 1000, 2000, 1)}),
                            run_of("tcp", {pp_row(65536, 9000, 9000, 8)}, "throughput")});
    Comparison c = compare({&rep});
    const CompareRow &r = row(c, "4096_lat", CompareMetric::LatencyP50);
    CHECK(r.cells[0].value);
    CHECK(r.cells[1].verdict == Verdict::Missing);
    CHECK(row(c, "65536_lat", CompareMetric::Bandwidth).group == "throughput");
}

TEST_CASE("comparison: a skipped variant in another file is not a size mismatch") {
    Report a = report_of({run_of("tcp", {pp_row(64, 2000, 4000, 1)})});
    Report b = report_of({skipped("rsocket", "no RDMA device")});
    Comparison c = compare({&a, &b});
    CHECK(c.columns.size() == 2);
    CHECK(row(c, "64_lat", CompareMetric::LatencyP50).cells[1].verdict == Verdict::Missing);
}

TEST_CASE("comparison: connection steps, the connection rate, and RDMA-only steps") {
    Report tcp = report_of(
        {steps_run("sock-steps", "tcp",
                   {step_row("full connect", 20000, 0, 0), step_row("create id", 300, 3, 100),
                    step_row("create qp", 0, 0, 0), step_row("cm connect", 15000, 150, 100),
                    step_row("server full connect", 10000, 0, 0)})},
        "alpha");
    Report rdma = report_of(
        {steps_run("cm-steps", "rdma",
                   {step_row("full connect", 80000, 0, 0), step_row("create id", 500, 5, 100),
                    step_row("create qp", 9000, 90, 100),
                    step_row("cm connect", 30000, 300, 100)})},
        "beta");
    Comparison c = compare({&tcp, &rdma}); // different items, same sizes: no mismatch
    REQUIRE(c.columns == std::vector<std::string>{"tcp", "rdma"});
    REQUIRE(c.rows.size() == 4);
    CHECK(c.rows[0].item == "full connect");
    CHECK(c.rows[0].metric == CompareMetric::ConnRate);
    CHECK(c.rows[0].cells[0].value->median == Approx(5000)); // 100 conns in 20 ms
    CHECK(c.rows[0].cells[1].value->median == Approx(1250));
    CHECK(*c.rows[0].cells[1].ratio == Approx(0.25));
    CHECK(c.rows[1].item == "create id");
    CHECK(c.rows[1].metric == CompareMetric::StepTime);
    CHECK(*c.rows[1].cells[1].ratio == Approx(5.0 / 3.0));
    const CompareRow &qp = row(c, "create qp", CompareMetric::StepTime);
    CHECK_FALSE(qp.cells[0].value); // TCP has no QP: a missing cell
    CHECK(qp.cells[1].value->median == Approx(90));
    CHECK(qp.cells[1].verdict == Verdict::Missing);
    CHECK_FALSE(has_row(c, "server full connect", CompareMetric::StepTime));
    CHECK(higher_is_better(CompareMetric::ConnRate));
    CHECK_FALSE(higher_is_better(CompareMetric::StepTime));
}

TEST_CASE("comparison: a run's compare list restricts what it contributes") {
    RunResult tcp = run_of("tcp", {pp_row(64, 2000, 4000, 1)});
    RunResult rs = run_of("rsocket", {pp_row(64, 1000, 2000, 2)});
    tcp.compare = rs.compare = {"bandwidth"};
    Report rep = report_of({tcp, rs});
    Comparison c = compare({&rep});
    REQUIRE(c.rows.size() == 1);
    CHECK(c.rows[0].metric == CompareMetric::Bandwidth);

    rs.compare = {"latency"}; // bandwidth from tcp only, latency from rsocket only
    rep = report_of({tcp, rs});
    c = compare({&rep});
    CHECK(row(c, "64_lat", CompareMetric::Bandwidth).cells[1].verdict == Verdict::Missing);
    CHECK(row(c, "64_lat", CompareMetric::LatencyP50).cells[0].verdict == Verdict::Baseline);
    CHECK_FALSE(row(c, "64_lat", CompareMetric::LatencyP50).cells[0].value);
}

TEST_CASE("comparison: CPU per GB and per connection, from both sides' CPU time") {
    // Bandwidth rows: pingpong's without their round-trip histogram.
    const auto bw_row = [](double size, uint64_t p50, uint64_t p99, double gbps) {
        Row r = pp_row(size, p50, p99, gbps);
        r.hists.clear();
        return r;
    };
    RunResult tcp = run_of("tcp", {bw_row(1e6, 2000, 4000, 1)}); // total 1e9 bytes
    tcp.cpu_client = {0.5, 0.1};
    tcp.cpu_server = {0.3, 0.1};
    RunResult rs = run_of("rsocket", {bw_row(1e6, 1000, 2000, 2)});
    rs.cpu_client = {0.2, 0.0};
    rs.cpu_server = {0.2, 0.1};
    RunResult unmeasured = run_of("verbs", {bw_row(1e6, 1000, 2000, 2)});
    Report rep = report_of({tcp, rs, unmeasured});
    Comparison c = compare({&rep});
    const CompareRow &gb = row(c, "whole run", CompareMetric::CpuPerGB);
    CHECK(gb.cells[0].value->median == Approx(1.0));
    CHECK(gb.cells[1].value->median == Approx(0.5));
    CHECK_FALSE(gb.cells[2].value);
    CHECK(c.rows.back().metric == CompareMetric::CpuPerGB); // closes the group

    // The same runs measuring latency (with their round trips): none.
    RunResult lat = run_of("tcp", {pp_row(1e6, 2000, 4000, 1)});
    lat.cpu_client = tcp.cpu_client;
    lat.cpu_server = tcp.cpu_server;
    Report lat_rep = report_of({lat});
    CHECK_FALSE(has_row(compare({&lat_rep}), "whole run", CompareMetric::CpuPerGB));

    RunResult steps = steps_run("sock-steps", "tcp", {step_row("full connect", 20000, 0, 0)});
    steps.cpu_client = {0.004, 0.002};
    steps.cpu_server = {0.003, 0.001};
    Report s = report_of({steps});
    CHECK(row(compare({&s}), "whole run", CompareMetric::CpuPerConn).cells[0].value->median ==
          Approx(100)); // 0.01 s over 100 connections
}

TEST_CASE("comparison table: medians, spreads, ratios with better/worse, notes") {
    std::vector<RunResult> runs;
    for (uint64_t p50 : {20000, 22000}) {
        RunResult r = run_of("tcp", {pp_row(64, p50, 40000, 1)});
        r.repeats = 2;
        runs.push_back(r);
    }
    runs.push_back(run_of("rsocket", {pp_row(64, 10000, 80000, 4)}));
    runs.push_back(skipped("verbs", "no device"));
    Report rep = report_of(runs);
    std::ostringstream out;
    write_comparison_table(out, compare({&rep}));
    const std::string text = out.str();
    INFO(text);
    CHECK_THAT(text, Catch::Contains("baseline tcp"));
    CHECK_THAT(text, Catch::Contains("\npingpong\n"));
    CHECK_THAT(text, Catch::Contains("rsocket/tcp"));
    CHECK_THAT(text, Catch::Contains("10.50 [10.00\u201311.00]"));
    CHECK_THAT(text, Catch::Contains("0.48x better")); // latency halved
    CHECK_THAT(text, Catch::Contains("2.00x worse"));  // p99 doubled
    CHECK_THAT(text, Catch::Contains("4.00x better")); // bandwidth
    CHECK_THAT(text, Catch::Contains("verbs pingpong: skipped: no device"));
    // Columns line up: each data line's ratio starts under the header's.
    std::istringstream lines(text);
    std::string line;
    size_t at = std::string::npos, checked = 0;
    while (std::getline(lines, line)) {
        if (line.find("  item") == 0)
            at = line.find("rsocket/tcp");
        else if (at != std::string::npos && line.find("  64_lat") == 0) {
            // Display columns: the en dash of a spread is three bytes, one column.
            std::string shown;
            for (unsigned char ch : line)
                if ((ch & 0xC0) != 0x80) shown += (ch & 0x80) ? '~' : char(ch);
            REQUIRE(shown.size() > at);
            CHECK(shown[at - 1] == ' ');
            CHECK(shown[at] != ' ');
            ++checked;
        }
    }
    CHECK(checked == 3);
}

TEST_CASE("comparison JSON: columns, baseline, a cell per column, null when missing") {
    Report rep = report_of(
        {run_of("tcp", {pp_row(64, 20000, 40000, 1)}), skipped("rsocket", "no RDMA device")});
    std::ostringstream out;
    write_comparison_json(out, compare({&rep}));
    const auto doc = nlohmann::json::parse(out.str());
    CHECK(doc["schema"] == "cmdbench-comparison");
    CHECK(doc["columns"] == nlohmann::json({"tcp", "rsocket"}));
    CHECK(doc["baseline"] == "tcp");
    REQUIRE(doc["rows"].size() == 3);
    const auto &r = doc["rows"][0];
    CHECK(r["metric"] == "latency_p50");
    CHECK(r["unit"] == "us");
    CHECK(r["size"] == 64);
    REQUIRE(r["cells"].size() == 2);
    CHECK(r["cells"][0]["median"] == 10.0);
    CHECK(r["cells"][0]["n"] == 1);
    CHECK(r["cells"][0]["verdict"] == "baseline");
    CHECK(r["cells"][1]["median"].is_null());
    CHECK(r["cells"][1]["ratio"].is_null());
    CHECK(r["cells"][1]["verdict"] == "missing");
    CHECK(doc["notes"][0] == "rsocket pingpong: skipped: no RDMA device");
}

// Link rates read from sysfs text and expectations judged on reports built
// here (verdict.hpp): pass, fail and unknown, and the summary that names them.
#include "cmdbench/report/histogram.hpp"
#include "cmdbench/report/link_rate.hpp"
#include "cmdbench/report/old_metric_names.hpp"
#include "cmdbench/report/verdict.hpp"

#include <catch2/catch.hpp>
#include <cmdbench/plugin.h>
#include <nlohmann/json.hpp>

using namespace cmdbench;

namespace {

// As the host reads rows from a plugin that declared no meanings: their
// old names give them theirs (old_metric_names.hpp).
std::vector<Row> as_read(std::vector<Row> rows) {
    for (Row &row : rows)
        give_old_name_meanings(row);
    return rows;
}

Row bw_row(const std::string &name, double gbps, uint64_t p99_ns = 20000) {
    Row r;
    r.name = name;
    r.metrics = {{"bytes", 65536, CMDBENCH_UNIT_BYTES},
                 {"xfers", 1, CMDBENCH_UNIT_COUNT},
                 {"Gb/sec", gbps, CMDBENCH_UNIT_GBPS}};
    HistSummary h;
    h.count = 100;
    h.p50 = h.p90 = h.p99 = p99_ns;
    h.min = h.max = p99_ns;
    r.hists = {{"rtt", h}};
    return r;
}

SidePath rxe_side(const std::string &rate) {
    SidePath s;
    s.rdma = true;
    RdmaDevice d;
    d.name = "rxe0";
    d.driver = "rxe";
    d.rate = rate;
    s.devices.push_back(d);
    s.interface.name = "eth0";
    return s;
}

SidePath netdev_side(const std::string &name, const std::string &speed) {
    SidePath s;
    s.interface.name = name;
    s.interface.speed = speed;
    return s;
}

RunResult run_of(const std::string &variant, std::vector<Row> rows, Expectations e = {}) {
    RunResult r;
    r.name = "bw/" + variant;
    r.test = "pingpong";
    r.transport = variant;
    r.group = "bw";
    r.variant = variant;
    r.rows = as_read(std::move(rows));
    r.expect = std::move(e);
    return r;
}

} // namespace

TEST_CASE("link rates parse from the RDMA port's rate and the interface's speed") {
    CHECK(parse_link_rate("2.5 Gb/sec (1X SDR)") == 2.5e9);
    CHECK(parse_link_rate("100 Gb/sec (4X EDR)") == 100e9);
    CHECK(parse_link_rate("10000 Mb/s") == 1e10);
    CHECK(parse_link_rate("25000") == 25e9); // sysfs speed: Mb/s, no unit
    for (const char *bad : {"unknown", "-1", "0", "", "fast", "10 Tb/s", "Gb/sec 2.5", "nan"})
        CHECK_FALSE(parse_link_rate(bad));
    // A rate no link has is no rate: it would overflow to "inf Gb/s".
    CHECK(parse_link_rate("1000000 Gb/s") == kMaxLinkBitsPerSecond);
    for (const char *absurd : {"1e308 Gb/sec", "1e300", "1000001 Gb/s", "1e10 Mb/s"})
        CHECK_FALSE(parse_link_rate(absurd));
}

TEST_CASE("a run's link rate is the lower side's, or the one side known") {
    RunPath p;
    p.client = rxe_side("100 Gb/sec (4X EDR)");
    p.server = rxe_side("2.5 Gb/sec (1X SDR)");
    auto rate = run_link_rate(p);
    REQUIRE(rate);
    CHECK(rate->bits_per_second == 2.5e9);
    CHECK(rate->name == "rxe0");
    CHECK(link_rate_text(*rate) == "rxe0 2.5 Gb/s");

    p.server = netdev_side("lo", "unknown");
    p.client = netdev_side("eth1", "1000 Mb/s");
    rate = run_link_rate(p);
    REQUIRE(rate);
    CHECK(rate->name == "eth1");
    CHECK(rate->bits_per_second == 1e9);

    p.client = netdev_side("lo", "unknown");
    CHECK_FALSE(run_link_rate(p));
}

TEST_CASE("bandwidth rows get their fraction of the link rate") {
    RunResult r = run_of("rsocket", {bw_row("64k", 1.0), bw_row("1m", 2.0)});
    r.path.client = rxe_side("2.5 Gb/sec (1X SDR)");
    const auto f = row_link_fractions(r);
    CHECK(f.at("64k") == Approx(0.4));
    CHECK(f.at("1m") == Approx(0.8));
    r.path.client = netdev_side("lo", "unknown");
    CHECK(row_link_fractions(r).empty());
}

TEST_CASE("link_fraction: pass, fail and unknown, naming the device and its rate") {
    Expectations e;
    e.link_fraction = 0.5;
    Report rep;
    rep.baseline = "tcp";
    rep.runs.push_back(run_of("rsocket", {bw_row("64k", 1.0), bw_row("1m", 2.0)}, e));
    rep.runs[0].path.client = rxe_side("2.5 Gb/sec (1X SDR)");
    auto v = evaluate_expectations(rep);
    REQUIRE(v.size() == 2);
    CHECK(v[0].outcome == Outcome::Fail);
    CHECK(*v[0].value == Approx(0.4));
    CHECK(v[1].outcome == Outcome::Pass);
    CHECK_FALSE(all_held(v));
    CHECK(verdict_text(v[0]) ==
          "bw/rsocket 64k: bandwidth 1 Gb/s = 0.4 of rxe0 2.5 Gb/s, expected >= 0.5");
    CHECK(verdict_summary(v) == "1 of 2 expectations failed: bw/rsocket 64k: bandwidth 1 Gb/s = "
                                "0.4 of rxe0 2.5 Gb/s, expected >= 0.5");
    const auto j = verdicts_json(v);
    CHECK(j["failed"] == 1);
    CHECK(j["verdicts"][0]["link"]["name"] == "rxe0");
    CHECK(j["verdicts"][0]["link"]["rate_bps"] == 2.5e9);

    // An unknown rate must not pass an acceptance run.
    rep.runs[0].path.client = netdev_side("lo", "unknown");
    v = evaluate_expectations(rep);
    REQUIRE(v.size() == 1);
    CHECK(v[0].outcome == Outcome::Unknown);
    CHECK(v[0].reason == "link rate unknown (lo speed unknown)");
    CHECK_FALSE(all_held(v));
}

TEST_CASE("absolute bounds and ratios to the baseline's median") {
    Expectations e;
    MetricBounds lat;
    lat.max = 15; // us one way: rtt p99 20 us is 10 us one way
    MetricBounds bw;
    bw.min_ratio = 0.8;
    e.metrics = {{"latency_p99", lat}, {"bandwidth", bw}};
    Report rep;
    rep.baseline = "tcp";
    rep.runs.push_back(run_of("tcp", {bw_row("64k", 1.0)}));
    rep.runs.push_back(run_of("tcp", {bw_row("64k", 3.0)}));
    rep.runs.push_back(run_of("tcp", {bw_row("64k", 2.0)}));
    rep.runs.push_back(run_of("rsocket", {bw_row("64k", 1.5, 40000)}, e));
    const auto v = evaluate_expectations(rep);
    REQUIRE(v.size() == 2);
    CHECK(v[0].metric == "latency_p99");
    CHECK(*v[0].value == Approx(20));
    CHECK(v[0].outcome == Outcome::Fail);
    CHECK(v[1].check == "min_ratio");
    CHECK(*v[1].baseline == Approx(2.0)); // the median of 1, 3, 2
    CHECK(*v[1].value == Approx(0.75));
    CHECK(v[1].outcome == Outcome::Fail);
    CHECK(verdict_text(v[1]) ==
          "bw/rsocket 64k: bandwidth ratio to the baseline 0.75 (1.5 vs 2 Gb/s), expected >= 0.8");
}

TEST_CASE("a metric no row has, and a run that did not finish, are unknown") {
    Expectations e;
    MetricBounds rate;
    rate.min = 1;
    e.metrics = {{"conn_rate", rate}};
    Report rep;
    rep.runs.push_back(run_of("tcp", {bw_row("64k", 1.0)}, e));
    rep.runs.push_back(run_of("rsocket", {}, e));
    rep.runs[1].status = RunStatus::Skipped;
    rep.runs[1].error = "no RDMA device";
    const auto v = evaluate_expectations(rep);
    REQUIRE(v.size() == 2);
    CHECK(v[0].outcome == Outcome::Unknown);
    CHECK(v[0].reason == "no row of this run has a value for conn_rate");
    CHECK(v[1].outcome == Outcome::Unknown);
    CHECK(v[1].reason == "run skipped: no RDMA device");
    CHECK(verdict_summary(v).rfind("2 of 2 expectations could not be judged: ", 0) == 0);
}

TEST_CASE("expectations survive the JSON results and read back") {
    Expectations e;
    e.link_fraction = 0.9;
    MetricBounds b;
    b.max = 20;
    b.min_ratio = 0.5;
    e.metrics = {{"latency_p99", b}};
    const auto read = expectations_from_json(expectations_json(e), "r.json: runs[0]");
    REQUIRE(read);
    const Expectations &back = *read;
    CHECK(back.link_fraction == 0.9);
    REQUIRE(back.metrics.size() == 1);
    CHECK(back.metrics[0].first == "latency_p99");
    CHECK(back.metrics[0].second.max == 20);
    CHECK(back.metrics[0].second.min_ratio == 0.5);
    CHECK_FALSE(back.metrics[0].second.min);
}

TEST_CASE("an expectation from [defaults] leaves out runs without the metric") {
    Expectations e;
    e.link_fraction = 0.5;
    e.inherited = true;
    Report rep;
    RunResult steps = run_of("tcp", {}, e);
    Row connect;
    connect.name = "connect";
    connect.metrics = {{"conns", 10, CMDBENCH_UNIT_COUNT}};
    steps.rows = as_read({connect});
    steps.path.client = netdev_side("lo", "unknown");
    rep.runs.push_back(steps);
    CHECK(evaluate_expectations(rep).empty());
    // On a run with bandwidth rows, the link rate unknown is still not a pass.
    rep.runs.push_back(run_of("tcp", {bw_row("64k", 1.0)}, e));
    const auto v = evaluate_expectations(rep);
    REQUIRE(v.size() == 1);
    CHECK(v[0].outcome == Outcome::Unknown);
}

// A p99 of 20 samples is their maximum, not a p99: an expectation on it
// cannot pass, and says why; the row's p50 is judged as usual.
TEST_CASE("an expectation on a percentile of too few samples is unknown, naming the count") {
    Histogram twenty;
    for (uint64_t ns = 2000; ns < 2020; ++ns)
        twenty.record(ns);
    Row few = bw_row("64k", 1.0);
    few.hists = {{"rtt", twenty.summary()}};
    Expectations e;
    MetricBounds lat;
    lat.max = 1000; // us: any figure of these samples would pass
    e.metrics = {{"latency_p99", lat}, {"latency_p50", lat}};
    for (bool inherited : {false, true}) {
        INFO("inherited " << inherited);
        e.inherited = inherited;
        Report rep;
        rep.baseline = "tcp";
        rep.runs.push_back(run_of("tcp", {few, bw_row("1m", 1.0)}, e));
        const auto v = evaluate_expectations(rep);
        REQUIRE(v.size() == 4);
        CHECK(v[0].metric == "latency_p99");
        CHECK(v[0].row == "64k");
        CHECK(v[0].outcome == Outcome::Unknown);
        CHECK_FALSE(v[0].value);
        CHECK(v[0].reason == "20 samples, too few for a p99 (it needs 100)");
        CHECK(verdict_text(v[0]) == "bw/tcp 64k: latency_p99, expected <= 1000: 20 samples, too "
                                    "few for a p99 (it needs 100)");
        CHECK(v[1].row == "1m"); // 100 samples: judged
        CHECK(v[1].outcome == Outcome::Pass);
        CHECK(v[2].metric == "latency_p50");
        CHECK(v[2].outcome == Outcome::Pass);
        CHECK(v[3].outcome == Outcome::Pass);
        CHECK_FALSE(all_held(v));
    }

    // As the baseline of a ratio, it is no value either.
    MetricBounds ratio;
    ratio.max_ratio = 10;
    Expectations r;
    r.metrics = {{"latency_p99", ratio}};
    Report rep;
    rep.baseline = "tcp";
    rep.runs.push_back(run_of("tcp", {few}));
    rep.runs.push_back(run_of("rsocket", {bw_row("64k", 1.0)}, r));
    const auto v = evaluate_expectations(rep);
    REQUIRE(v.size() == 1);
    CHECK(v[0].outcome == Outcome::Unknown);
    CHECK(v[0].reason == "no value of baseline 'tcp'");
}

// verbs-lat's rows through a fake host: each thread's samples merged into
// one row per size, halved into one-way figures for send and write only.
#include "fake_host.hpp"
#include "lat/lat_loop.hpp"

#include <catch2/catch.hpp>

using verbs_test::FakeHost;

namespace {

const cmdbench_test &lat_descriptor() {
    static const cmdbench_test lat = cmdbench::verbs::verbs_test_descriptor(false, "lat", nullptr);
    return lat;
}

} // namespace

TEST_CASE("verbs lat: every thread's samples go into one row") {
    FakeHost host(lat_descriptor());
    host.set("qps", "2").set("threads", "2");
    cmdbench::verbs::Run run(host.env());
    const cmdbench::verbs::Params p = cmdbench::verbs::read_params(run, false);
    std::vector<cmdbench::verbs::ThreadTimes> times = cmdbench::verbs::thread_times(run, 2);
    for (auto &t : times)
        t.clock = cmdbench::support::TickClock(false); // ticks are ns
    for (int t = 0; t < 2; ++t) {
        cmdbench::verbs::SampleBatch batch(run.host(), times[size_t(t)]);
        for (int k = 0; k < 3; ++k)
            batch.add(uint64_t(1000 * (t + 1))); // thread 0: 1 us, thread 1: 2 us
        batch.flush();
    }
    cmdbench::verbs::report_lat(run, p, 64, times, true);
    REQUIRE(host.rows.size() == 1);
    const verbs_test::FakeRow &row = host.rows[0];
    CHECK(row.name == "64_lat");
    CHECK(row.ended);
    CHECK(row.hist_counts.at("rtt") == 6);
    CHECK(row.metrics.at("iters") == 6);
    CHECK(row.metrics.at("usec/rtt") == Approx(1.5));
    CHECK(row.metrics.at("usec/xfer") == Approx(0.75)); // one way: half
    CHECK(row.metrics.at("total") == 64 * 6 * 2);       // both directions moved
    CHECK(row.metrics.at("time") == Approx(9e-6));
    CHECK(row.metrics.at("qps") == 2);
}

TEST_CASE("verbs lat: a READ or atomic round trip is reported whole") {
    FakeHost host(lat_descriptor());
    cmdbench::verbs::Run run(host.env());
    const cmdbench::verbs::Params p = cmdbench::verbs::read_params(run, false);
    std::vector<cmdbench::verbs::ThreadTimes> times = cmdbench::verbs::thread_times(run, 1);
    times[0].clock = cmdbench::support::TickClock(false); // ticks are ns
    cmdbench::verbs::SampleBatch batch(run.host(), times[0]);
    batch.add(4000);
    batch.flush();
    cmdbench::verbs::report_lat(run, p, 8, times, false);
    REQUIRE(host.rows.size() == 1);
    CHECK(host.rows[0].metrics.at("usec/xfer") == Approx(4.0));
    CHECK(host.rows[0].metrics.at("total") == 8);
}

TEST_CASE("verbs lat: a batch goes to the histogram when full, and on flush") {
    FakeHost host(lat_descriptor());
    cmdbench::verbs::Run run(host.env());
    std::vector<cmdbench::verbs::ThreadTimes> times = cmdbench::verbs::thread_times(run, 1);
    cmdbench::verbs::SampleBatch batch(run.host(), times[0]);
    int full = 0;
    for (int k = 0; k < 600; ++k)
        full += batch.add(100000); // ticks
    CHECK(full == 1);              // 512 a batch
    CHECK(times[0].count == 512);  // counted as they go to the histogram
    batch.flush();
    CHECK(times[0].count == 600);
    // in nanoseconds at the clock's rate (1 where it counts them)
    CHECK(double(times[0].sum_ns) ==
          Approx(600 * 100000 * times[0].clock.ns_per_tick()).epsilon(0.01));
}

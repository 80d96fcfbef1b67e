// The step tests' server report (cm-steps, sock-steps) travels as figures
// plus one histogram per step (send_report / report_peer_rows, over the
// host's exchange and hist_send/hist_recv on a real TCP control channel).
// The client's "server ..." rows must equal what report_rows made from the
// raw samples that used to travel: same rows, keys, values and percentiles.
#include "cmdbench/cmtime/step_host.hpp"
#include "cmdbench/control/control.hpp"
#include "cmdbench/host/plugins/host_services.hpp"
#include "cmdbench/host/run/control_peer.hpp"
#include "cmdbench/report/histogram_wire.hpp"

#include <catch2/catch.hpp>
#include <future>
#include <memory>
#include <random>

using namespace cmdbench;

namespace {

cmdbench_run_env env_of(cmdbench_ctx &ctx, uint32_t role) {
    return cmdbench_run_env{
        sizeof(cmdbench_run_env), host_services(), &ctx, role, nullptr, nullptr};
}

// A report as a run of `conns` connections gives: some steps timed per
// connection (lognormal durations), others not measured at all.
cmdbench::cmtime::StepReport sample_report(uint64_t conns) {
    std::mt19937_64 rng(conns);
    std::lognormal_distribution<double> took(9, 1.5);
    cmdbench::cmtime::StepReport r;
    r.conns = conns;
    r.threads = 4;
    for (int s :
         {cmdbench::cmtime::kCreateId, cmdbench::cmtime::kConnect, cmdbench::cmtime::kDestroyId}) {
        cmdbench::cmtime::StepStats &st = r.step[s];
        st.total_us = 1000 + uint64_t(s) * 7;
        st.min_us = UINT64_MAX;
        for (uint64_t c = 0; c < conns; ++c) {
            const uint64_t ns = uint64_t(took(rng));
            st.sample_ns.push_back(ns);
            st.sum_us += ns / 1000;
            st.max_us = std::max(st.max_us, ns / 1000);
            st.min_us = std::min(st.min_us, ns / 1000);
        }
        st.samples = conns;
    }
    r.step[cmdbench::cmtime::kFullConnect].total_us = 4321;
    return r;
}

// Rows as the old path made them: report_rows on the raw samples.
std::vector<Row> rows_from_samples(const cmdbench::cmtime::StepReport &r) {
    cmdbench_ctx ctx;
    const cmdbench_run_env env = env_of(ctx, CMDBENCH_ROLE_CLIENT);
    cmdbench::cmtime::report_rows(env, r, "server ");
    return ctx.rows;
}

// Rows as the client now makes them from what the server shipped.
std::vector<Row> rows_shipped(const cmdbench::cmtime::StepReport &r) {
    control::Listener listener("127.0.0.1", 0);
    auto accepted = std::async(std::launch::async, [&] { return listener.accept(5000); });
    control::Channel client_ch = control::Channel::connect("127.0.0.1", listener.port(), 5000);
    control::Channel server_ch = accepted.get();
    ControlPeer client_link(client_ch, "server"), server_link(server_ch, "client");
    cmdbench_ctx client, server;
    client.peer = &client_link;
    server.peer = &server_link;
    client.deadline_ns = server.deadline_ns = monotonic_ns() + 30'000'000'000ULL;
    const cmdbench_run_env client_env = env_of(client, CMDBENCH_ROLE_CLIENT);
    const cmdbench_run_env server_env = env_of(server, CMDBENCH_ROLE_SERVER);
    auto sent = std::async(std::launch::async,
                           [&] { cmdbench::cmtime::send_report(server_env, r, "test: results"); });
    cmdbench::cmtime::report_peer_rows(client_env, "server ", "test: results");
    sent.get(); // rethrows what the server side threw
    return client.rows;
}

void check_same_rows(const std::vector<Row> &want, const std::vector<Row> &got) {
    REQUIRE(got.size() == want.size());
    REQUIRE(got.size() == size_t(cmdbench::cmtime::kStepCount));
    for (size_t i = 0; i < want.size(); ++i) {
        INFO("row " << want[i].name);
        CHECK(got[i].name == want[i].name);
        REQUIRE(got[i].metrics.size() == want[i].metrics.size());
        for (size_t m = 0; m < want[i].metrics.size(); ++m) {
            const Metric &a = want[i].metrics[m], &b = got[i].metrics[m];
            CHECK(b.key == a.key);
            CHECK(b.value == a.value);
            CHECK(b.unit == a.unit);
            CHECK(b.meaning.kind == a.meaning.kind);
            CHECK(b.meaning.better == a.meaning.better);
            CHECK(b.meaning.flags == a.meaning.flags);
        }
        REQUIRE(got[i].hists.size() == want[i].hists.size());
        for (size_t h = 0; h < want[i].hists.size(); ++h) {
            const HistSummary &a = want[i].hists[h].summary, &b = got[i].hists[h].summary;
            CHECK(got[i].hists[h].key == want[i].hists[h].key);
            CHECK(b.count == a.count);
            CHECK(b.min == a.min);
            CHECK(b.max == a.max);
            CHECK(b.mean == a.mean);
            CHECK(b.stddev == a.stddev);
            CHECK(b.p50 == a.p50);
            CHECK(b.p90 == a.p90);
            CHECK(b.p99 == a.p99);
            CHECK(b.p999 == a.p999);
            CHECK(b.p9999 == a.p9999);
            CHECK(got[i].hists[h].meaning.flags == want[i].hists[h].meaning.flags);
        }
    }
}

} // namespace

TEST_CASE("step report: the server's rows from shipped histograms equal those from samples") {
    const cmdbench::cmtime::StepReport report = sample_report(20000);
    const std::vector<Row> want = rows_from_samples(report);
    // The sample rows are real: 20,000 connections on the timed steps.
    REQUIRE(want[cmdbench::cmtime::kConnect].hists.at(0).summary.count == 20000);
    REQUIRE(want[cmdbench::cmtime::kBindAddr].hists.at(0).summary.count == 0);
    check_same_rows(want, rows_shipped(report));
}

TEST_CASE("step report: what crosses the control channel no longer grows with connections") {
    const cmdbench::cmtime::StepReport report = sample_report(20000);
    // Before: 8 bytes per connection per timed step, over 1 MiB here (three
    // exchange rounds of 512 KiB).
    CHECK(cmdbench::cmtime::encode_report(report).size() > 3 * 20000 * 8);
    // Now: 712 bytes of figures and 17 histograms, the timed ones of some
    // 1,500 buckets (at most 7,424 however many connections).
    CHECK(cmdbench::cmtime::encode_figures(report).size() == 712);
    size_t hist_bytes = 0;
    for (const cmdbench::cmtime::StepStats &st : report.step) {
        Histogram h;
        for (uint64_t v : st.sample_ns)
            h.record(v);
        hist_bytes += encode_hist_wire(h).size();
    }
    CHECK(hist_bytes < 3 * 20000 * 8 / 8);
}

TEST_CASE("step report: figures round trip, and an old peer's samples are named as such") {
    const cmdbench::cmtime::StepReport report = sample_report(50);
    const cmdbench::cmtime::StepReport back =
        cmdbench::cmtime::decode_figures(cmdbench::cmtime::encode_figures(report));
    CHECK(back.conns == 50);
    CHECK(back.threads == 4);
    for (int s = 0; s < cmdbench::cmtime::kStepCount; ++s) {
        CHECK(back.step[s].total_us == report.step[s].total_us);
        CHECK(back.step[s].sum_us == report.step[s].sum_us);
        CHECK(back.step[s].max_us == report.step[s].max_us);
        CHECK(back.step[s].min_us == report.step[s].min_us);
        CHECK(back.step[s].samples == report.step[s].samples);
        CHECK(back.step[s].sample_ns.empty());
    }
    CHECK_THROWS_WITH(cmdbench::cmtime::decode_figures(cmdbench::cmtime::encode_report(report)),
                      Catch::Contains("run the same cmdbench on both sides"));
    auto bytes = cmdbench::cmtime::encode_figures(report);
    bytes.pop_back();
    CHECK_THROWS_WITH(cmdbench::cmtime::decode_figures(bytes), Catch::Contains("truncated"));
}

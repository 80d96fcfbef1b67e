// verbs-bw's pure parts through a fake host: the send phases' accounting
// (warm-up counted as sent, the timed phase as figures), the sum over QPs,
// what the peers swap, and the rows built from it.
#include "bw/bw_runner.hpp"
#include "fake_host.hpp"

#include <catch2/catch.hpp>
#include <map>

using Catch::Contains;
using verbs_test::FakeHost;

namespace {

const cmdbench_test &bw_descriptor() {
    static const cmdbench_test bw = cmdbench::verbs::verbs_test_descriptor(true, "bw", nullptr);
    return bw;
}

// What send_phases needs of a QP: its index.
struct FakeQp {
    uint32_t i;
    uint32_t index() const { return i; }
};

// A QP whose CQ (a fake provider's poll_cq) completes every request as soon
// as it was posted: what pump_window needs to go on posting at full speed.
struct InstantQp {
    static inline uint64_t last_posted = 0;
    ibv_context context{};
    ibv_cq cq_{};
    InstantQp() {
        context.ops.poll_cq = [](ibv_cq *, int, ibv_wc *wc) {
            if (last_posted == 0) return 0;
            *wc = ibv_wc{};
            wc->wr_id = last_posted;
            wc->status = IBV_WC_SUCCESS;
            wc->opcode = IBV_WC_SEND;
            last_posted = 0;
            return 1;
        };
        cq_.context = &context;
    }
    ibv_cq *cq() { return &cq_; }
    ibv_comp_channel *channel() { return nullptr; } // event mode is not used
    uint32_t index() const { return 0; }
    bool armed = false;
};

// A QP whose CQ completes each signalled request at once, as a device
// does: the completion covers the unsignalled ones before it.
struct SignalledQp {
    static inline uint64_t last_signaled = 0;
    ibv_context context{};
    ibv_cq cq_{};
    SignalledQp() {
        context.ops.poll_cq = [](ibv_cq *, int, ibv_wc *wc) {
            if (last_signaled == 0) return 0;
            *wc = ibv_wc{};
            wc->wr_id = last_signaled;
            wc->status = IBV_WC_SUCCESS;
            wc->opcode = IBV_WC_RDMA_WRITE;
            last_signaled = 0;
            return 1;
        };
        cq_.context = &context;
    }
    ibv_cq *cq() { return &cq_; }
    ibv_comp_channel *channel() { return nullptr; }
    uint32_t index() const { return 0; }
    bool armed = false;
};

// One ibv_post_send: requests first .. last, the last signalled or not.
struct Chain {
    uint64_t first, last;
    bool signaled;
};

// The chains pump_window posts for `count` messages with these keys.
std::vector<Chain> chains_of(const std::map<std::string, std::string> &keys, uint64_t count) {
    FakeHost host(bw_descriptor());
    for (const auto &[k, v] : keys)
        host.set(k, v);
    cmdbench::verbs::Run run(host.env());
    const cmdbench::verbs::Params p = cmdbench::verbs::read_params(run, true);
    SignalledQp qp;
    std::vector<SignalledQp *> conns = {&qp};
    auto states = cmdbench::verbs::window_states(conns);
    std::vector<Chain> chains;
    cmdbench::verbs::pump_window(
        run, p, 64, states, count, 0, "sender", false,
        [&](SignalledQp &, uint64_t k, bool signaled, uint64_t n) {
            chains.push_back({k - n + 1, k, signaled});
            if (signaled) SignalledQp::last_signaled = k;
        },
        [](SignalledQp &, const ibv_wc &) { return false; });
    return chains;
}

} // namespace

TEST_CASE("verbs bw: post_list chains requests, a signalled one last in its chain") {
    // 8 per post, a completion every 20th: chains end at each 20th.
    const std::vector<Chain> chains =
        chains_of({{"post_list", "8"}, {"cq_mod", "20"}, {"tx_depth", "64"}}, 100);
    uint64_t next = 1, signaled = 0;
    for (const Chain &c : chains) {
        CHECK(c.first == next); // every request once, in order
        CHECK(c.last - c.first + 1 <= 8);
        CHECK(c.signaled == (c.last % 20 == 0 || c.last == 100));
        CHECK((c.first - 1) / 20 == (c.last - 1) / 20); // never across a signalled one
        signaled += c.signaled;
        next = c.last + 1;
    }
    CHECK(next == 101);
    CHECK(signaled == 5);
    // Mostly full chains: 8, 8, 4 per 20 requests.
    REQUIRE(chains.size() >= 3);
    CHECK(chains[0].last == 8);
    CHECK(chains[2].last == 20);

    // Without post_list, one request per post, as before.
    for (const Chain &c : chains_of({{"cq_mod", "20"}}, 50))
        CHECK(c.first == c.last);
    // A chain as long as the window, cq_mod by size (100, lowered to 16).
    for (const Chain &c : chains_of({{"post_list", "16"}, {"tx_depth", "16"}}, 64)) {
        CHECK(c.last - c.first + 1 == 16);
        CHECK(c.signaled);
    }
}

TEST_CASE("verbs bw: the peak is the best rate over a window's worth of completions") {
    FakeQp q{0};
    cmdbench::verbs::WindowState<FakeQp> s{&q};
    s.mark_ns = 1000;
    s.completed = 100;
    cmdbench::verbs::note_peak(s, 128, 1000, 2000); // less than a window: no span yet
    CHECK(s.peak_gbps == 0);
    CHECK(s.mark == 0);
    s.completed = 128;
    cmdbench::verbs::note_peak(s, 128, 1000, 2024); // 128 KB in 1024 ns: 1000 Gb/s
    CHECK(s.peak_gbps == Approx(1000.0));
    CHECK(s.mark == 128);
    CHECK(s.mark_ns == 2024);
    s.completed = 256;
    cmdbench::verbs::note_peak(s, 128, 1000, 4072); // half the rate: the peak stays
    CHECK(s.peak_gbps == Approx(1000.0));
}

TEST_CASE("verbs bw: the row's peak: the QPs' peaks summed, never below the average") {
    FakeHost host(bw_descriptor());
    host.set("qps", "2");
    cmdbench::verbs::Run run(host.env());
    const cmdbench::verbs::Params p = cmdbench::verbs::read_params(run, true);
    // 1000 messages of 1 KiB over 1 ms: 8.192 Gb/s on average.
    cmdbench::verbs::report_bw(run, p, 1024, {{600, 0, 1'000'000, 6.0}, {400, 0, 500'000, 7.5}},
                               {600, 400}, nullptr);
    CHECK(host.rows.at(0).metrics.at("peak Gb/sec") == Approx(13.5));
    cmdbench::verbs::report_bw(run, p, 1024, {{600, 0, 1'000'000, 1.0}, {400, 0, 500'000, 1.0}},
                               {600, 400}, nullptr);
    CHECK(host.rows.at(1).metrics.at("peak Gb/sec") == Approx(8.192));
    cmdbench::verbs::report_bw_window(run, p, 1024, 3, {{600, 0, 1'000'000, 6.0}});
    CHECK(host.rows.at(2).name == "1k #3");
    CHECK(host.rows.at(2).metrics.at("peak Gb/sec") == Approx(6.0));
}

TEST_CASE("verbs bw: warm-up counts as sent, the timed phase as sent and figures") {
    FakeHost host(bw_descriptor());
    host.set("warmup", "10").set("iterations", "100").set("qps", "2");
    cmdbench::verbs::Run run(host.env());
    const cmdbench::verbs::Params p = cmdbench::verbs::read_params(run, true);
    FakeQp a{0}, b{1};
    std::vector<FakeQp *> qps = {&b, &a}; // in any order: counted by index
    auto mine = cmdbench::verbs::window_states(qps);
    std::vector<uint64_t> sent(2, 0);
    std::vector<cmdbench::verbs::QpFigures> figures(2);
    std::vector<std::pair<uint64_t, uint64_t>> phases; // (count, until) each pump got
    FakeHost::now_ = 5000;
    cmdbench::verbs::send_phases(
        run, p, 1024, mine, sent, figures, [&](uint64_t count, uint64_t until) {
            phases.emplace_back(count, until);
            for (auto &s : mine) {
                s.completed = count - s.conn->index(); // QP 1 finished one short
                s.end_ns = 9000 + s.conn->index();
            }
        });
    REQUIRE(phases.size() == 2);
    CHECK(phases[0] == std::make_pair(uint64_t(10), uint64_t(0)));
    CHECK(phases[1] == std::make_pair(uint64_t(100), uint64_t(0))); // no duration: no deadline
    CHECK(sent == std::vector<uint64_t>{110, 108});
    CHECK(figures[0].msgs == 100);
    CHECK(figures[1].msgs == 99);
    CHECK(figures[0].start_ns == 5000);
    CHECK(figures[1].end_ns == 9001);
}

TEST_CASE("verbs bw: a duration phase gets its deadline, and no warm-up without one") {
    FakeHost host(bw_descriptor());
    host.set("duration", "2");
    cmdbench::verbs::Run run(host.env());
    const cmdbench::verbs::Params p = cmdbench::verbs::read_params(run, true);
    FakeQp a{0};
    std::vector<FakeQp *> qps = {&a};
    auto mine = cmdbench::verbs::window_states(qps);
    std::vector<uint64_t> sent(1, 0);
    std::vector<cmdbench::verbs::QpFigures> figures(1);
    FakeHost::now_ = 1'000;
    std::vector<uint64_t> untils;
    cmdbench::verbs::send_phases(run, p, 1024, mine, sent, figures, [&](uint64_t, uint64_t until) {
        untils.push_back(until);
        mine[0].completed = 7;
    });
    CHECK(untils == std::vector<uint64_t>{1'000 + 2'000'000'000});
    CHECK(sent[0] == 7);
}

TEST_CASE("verbs bw: the sum over QPs spans the first start to the last end") {
    const std::vector<cmdbench::verbs::QpFigures> qps = {{1000, 100, 1100}, {500, 200, 2200}};
    const cmdbench::verbs::BwFigures f = cmdbench::verbs::sum_qps(1000, qps);
    CHECK(f.msgs == 1500);
    CHECK(f.start_ns == 100);
    CHECK(f.end_ns == 2200);
    CHECK(f.ns() == 2100);
    CHECK(f.max_qp_gbps == Approx(1000.0 * 1000 * 8 / 1000)); // QP 0: 8000 Gb/s
    CHECK(f.min_qp_gbps == Approx(500.0 * 1000 * 8 / 2000));  // QP 1: 2000 Gb/s
    CHECK_THROWS_WITH(cmdbench::verbs::sum_qps(1, {{1, 5, 0}}), Contains("a QP has no end time"));
}

TEST_CASE("verbs bw: counts and figures survive the trip to the peer") {
    const std::vector<uint64_t> counts = {0, 1, 0x0123456789abcdefull, ~uint64_t(0)};
    const std::vector<uint8_t> bytes = cmdbench::verbs::encode_counts(counts);
    CHECK(bytes.size() == 32);
    CHECK(bytes[15] == 1); // big-endian
    CHECK(cmdbench::verbs::decode_counts(bytes, 4) == counts);
    CHECK_THROWS_WITH(cmdbench::verbs::decode_counts(bytes, 3),
                      Contains("message counts are malformed"));

    cmdbench::verbs::BwFigures f;
    f.msgs = 42;
    f.start_ns = 7;
    f.end_ns = 99;
    f.min_qp_gbps = 1.25;
    f.max_qp_gbps = 3.5;
    f.peak_gbps = 4.75;
    const cmdbench::verbs::BwFigures back =
        cmdbench::verbs::decode_figures(cmdbench::verbs::encode_figures(f));
    CHECK(back.msgs == 42);
    CHECK(back.start_ns == 7);
    CHECK(back.end_ns == 99);
    CHECK(back.min_qp_gbps == 1.25);
    CHECK(back.max_qp_gbps == 3.5);
    CHECK(back.peak_gbps == 4.75);
    CHECK_THROWS_WITH(cmdbench::verbs::decode_figures({1, 2, 3}),
                      Contains("figures are malformed"));
}

TEST_CASE("verbs bw: one row per size, the QPs' spread with more than one") {
    FakeHost host(bw_descriptor());
    host.set("qps", "2");
    cmdbench::verbs::Run run(host.env());
    const cmdbench::verbs::Params p = cmdbench::verbs::read_params(run, true);
    // 1000 messages of 1 KiB over 1 ms: 8.192 Gb/s.
    cmdbench::verbs::report_bw(run, p, 1024, {{600, 0, 1'000'000}, {400, 0, 500'000}}, {600, 400},
                               nullptr);
    REQUIRE(host.rows.size() == 1);
    const verbs_test::FakeRow &row = host.rows[0];
    CHECK(row.name == "1k");
    CHECK(row.ended);
    CHECK(row.metrics.at("bytes") == 1024);
    CHECK(row.metrics.at("xfers") == 1000);
    CHECK(row.metrics.at("total") == 1024000);
    CHECK(row.metrics.at("time") == Approx(0.001));
    CHECK(row.metrics.at("Gb/sec") == Approx(8.192));
    CHECK(row.metrics.at("msgs/sec") == Approx(1e6));
    CHECK(row.metrics.at("qps") == 2);
    CHECK(row.metrics.at("min QP Gb/sec") == Approx(4.9152));
    CHECK(row.metrics.at("max QP Gb/sec") == Approx(6.5536));
    CHECK(row.metrics.count("lost") == 0); // RC: no arrival counts
    CHECK(host.logs.empty());
}

TEST_CASE("verbs bw: with arrival counts the row says what was lost, and the log why") {
    FakeHost host(bw_descriptor());
    cmdbench::verbs::Run run(host.env());
    const cmdbench::verbs::Params p = cmdbench::verbs::read_params(run, true);
    const std::vector<uint64_t> got = {90};
    cmdbench::verbs::report_bw(run, p, 64, {{100, 0, 1000}}, {100}, &got);
    REQUIRE(host.rows.size() == 1);
    CHECK(host.rows[0].metrics.at("lost") == 10);
    CHECK(host.rows[0].metrics.count("min QP Gb/sec") == 0); // one QP
    REQUIRE(host.logs.size() == 1);
    CHECK_THAT(host.logs[0], Contains("verbs-bw 64: 10 of 100 UD messages never arrived"));

    FakeHost quiet(bw_descriptor());
    cmdbench::verbs::Run all(quiet.env());
    const std::vector<uint64_t> every = {100};
    cmdbench::verbs::report_bw(all, p, 64, {{100, 0, 1000}}, {100}, &every);
    CHECK(quiet.rows[0].metrics.at("lost") == 0);
    CHECK(quiet.logs.empty());
}

TEST_CASE("verbs bw: a sender of large messages sees a cancel within 8 MiB of posts") {
    // Under Soft-RoCE a post moves its message inside the call: posts of
    // 1 MiB take milliseconds each, so a stop check every 4096 turns of the
    // loop came seconds after a Ctrl-C.
    FakeHost host(bw_descriptor());
    cmdbench::verbs::Run run(host.env());
    const cmdbench::verbs::Params p = cmdbench::verbs::read_params(run, true);
    InstantQp qp;
    std::vector<InstantQp *> conns = {&qp};
    auto states = cmdbench::verbs::window_states(conns);
    uint64_t posts = 0;
    try {
        cmdbench::verbs::pump_window(
            run, p, size_t(1) << 20, states, 1000000, 0, "sender", false,
            [&](InstantQp &, uint64_t k, bool, uint64_t) {
                InstantQp::last_posted = k;
                if (++posts == 3) host.cancel = true; // Ctrl-C comes
            },
            [](InstantQp &, const ibv_wc &) { return false; });
        FAIL("the sender did not stop");
    } catch (const cmdbench::verbs::RunError &e) {
        CHECK(e.status == CMDBENCH_ERR_CANCELLED);
    }
    CHECK(posts <= 3 + 8);
}

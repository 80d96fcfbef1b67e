// Test "pingpong": rstream's latency/bandwidth ping-pong with the same bytes on the wire as
// rstream: per size a 16-byte sync each way, then the timed iterations. suite = "custom": every
// size on one data connection with the given counts; suite = "rstream": rstream's standard suite, a
// latency phase then a bandwidth phase, each on its own connection through one listener, so it
// interoperates with rstream itself.
#include "fork_child.hpp"
#include "rstream_rules.hpp"
#include "stream_io.hpp"
#include "stream_tests.hpp"

#include <algorithm>
#include <cmdbench/plugin-support/descriptors.hpp>
#include <cmdbench/plugin-support/result_rows.hpp>
#include <cmdbench/plugin-support/run_guard.hpp>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace cmdbench::stream {
namespace {

constexpr int64_t kMaxSize = 1073741824;
constexpr int64_t kMaxCount = 1000000000;
constexpr size_t kSyncBytes = 16;

enum class Suite { Custom, Rstream };
enum class Hint { Auto, None, Latency, Bandwidth };

struct Settings : IoMode {
    std::vector<int64_t> sizes;
    int64_t iterations;
    int64_t transfer_count;
    bool verify;
    uint16_t port;
    Suite suite;
    Hint hint;
    std::string client_bind;
    bool fork;
};

const cmdbench::support::ParamSpec<Settings> &params() {
    static const auto spec = [] {
        using cmdbench::support::Choice;
        cmdbench::support::ParamSpec<Settings> p;
        p.int_list("sizes", &Settings::sizes, {64, 4096, 65536, 1048576}, 1, kMaxSize,
                   "transfer sizes in bytes; one result row each")
            .integer("iterations", &Settings::iterations, 0, 0, kMaxCount,
                     "round trips per size; 0 = rstream's count rule for the size")
            .integer("transfer_count", &Settings::transfer_count, 1, 0, kMaxCount,
                     "transfers each way per round trip; 0 = rstream's count rule for the size")
            .flag("verify", &Settings::verify, false,
                  "send rstream's counting pattern and check every received byte");
        add_io_params(p);
        p.choice("suite", &Settings::suite,
                 Choice<Suite>{{"custom", Suite::Custom}, {"rstream", Suite::Rstream}},
                 Suite::Custom,
                 "custom: the sizes and counts given, one connection; rstream: rstream's latency "
                 "phase then bandwidth phase (count rule), one connection each")
            .choice("hint", &Settings::hint,
                    Choice<Hint>{{"auto", Hint::Auto},
                                 {"none", Hint::None},
                                 {"latency", Hint::Latency},
                                 {"bandwidth", Hint::Bandwidth}},
                    Hint::Auto,
                    "socket hint for the transport in custom suite; auto: latency when "
                    "transfer_count is 1")
            .text("client_bind", &Settings::client_bind, "",
                  "client: local address to bind, with the data port as the local port (rstream "
                  "-b); empty = none")
            .flag("fork", &Settings::fork, false,
                  "server: a child process per accepted connection runs its tests (rstream -T f); "
                  "the children report their rows themselves, so `cmdbench serve` does not "
                  "collect them");
        return p;
    }();
    return spec;
}

// rstream's verify pattern: 8-bit send and receive counters that run
// on across every transfer, sync messages included, and are never reset.
class Pattern {
  public:
    void fill(uint8_t *buf, size_t len) {
        for (size_t i = 0; i < len; ++i)
            buf[i] = send_next_++;
    }
    void check(const uint8_t *buf, size_t len) {
        for (size_t i = 0; i < len; ++i) {
            if (buf[i] != recv_next_++) {
                char text[64];
                std::snprintf(text, sizeof(text), "data verification failed byte %llu",
                              static_cast<unsigned long long>(verified_ + i));
                fail(text);
            }
        }
        verified_ += len;
    }

  private:
    uint8_t send_next_ = 0;
    uint8_t recv_next_ = 0;
    uint64_t verified_ = 0;
};

// One side of the ping-pong: the client speaks first, the server answers.
class Peer {
  public:
    Peer(DataChannel &channel, std::vector<uint8_t> &buf, Pattern *verify, bool client)
        : channel_(channel), buf_(buf.data()), pattern_(verify), client_(client) {}

    // The untimed sync before each size.
    void sync() { exchange(kSyncBytes, 1); }
    // One timed iteration: `count` transfers of `size` one way, then back.
    void exchange(size_t size, int64_t count) {
        if (client_) {
            send(size, count);
            receive(size, count);
        } else {
            receive(size, count);
            send(size, count);
        }
    }

  private:
    void send(size_t size, int64_t count) {
        for (int64_t i = 0; i < count; ++i) {
            if (pattern_) pattern_->fill(buf_, size);
            channel_.send_all(buf_, size);
        }
    }
    void receive(size_t size, int64_t count) {
        for (int64_t i = 0; i < count; ++i) {
            channel_.recv_all(buf_, size);
            if (pattern_) pattern_->check(buf_, size);
        }
    }

    DataChannel &channel_;
    uint8_t *buf_;
    Pattern *pattern_; // null without verify; shared by both rstream phases
    bool client_;
};

struct SizePlan {
    int64_t size;
    int64_t transfers; // per direction per iteration
    int64_t iterations;
};

void report_row(const Run &s, const SizePlan &plan, uint64_t elapsed_ns, const cmdbench_hist *rtt) {
    const cmdbench_host &h = s.host();
    double ns = static_cast<double>(std::max<uint64_t>(elapsed_ns, 1));
    double us = ns / 1000.0;
    double one_way = 2.0 * static_cast<double>(plan.transfers);
    double total = static_cast<double>(plan.size) * one_way * static_cast<double>(plan.iterations);
    std::string name = rstream_size_label(plan.size) + (plan.transfers == 1 ? "_lat" : "_bw");
    cmdbench_row *row = cmdbench::support::begin_row(h, s.ctx(), name);
    namespace m = cmdbench::support::meaning;
    h.row_metric_ex(row, "bytes", static_cast<double>(plan.size), CMDBENCH_UNIT_BYTES,
                    &m::kMessageSize);
    h.row_metric_ex(row, "xfers", static_cast<double>(plan.transfers), CMDBENCH_UNIT_COUNT,
                    &m::kCount);
    h.row_metric_ex(row, "iters", static_cast<double>(plan.iterations), CMDBENCH_UNIT_COUNT,
                    &m::kCount);
    h.row_metric_ex(row, "total", total, CMDBENCH_UNIT_BYTES, &m::kMoved);
    h.row_metric_ex(row, "time", us / 1e6, CMDBENCH_UNIT_SECONDS, &m::kElapsed);
    h.row_metric_ex(row, "Gb/sec", total * 8.0 / (us * 1000.0), CMDBENCH_UNIT_GBPS, &m::kBandwidth);
    h.row_metric_ex(row, "usec/xfer", us / static_cast<double>(plan.iterations) / one_way,
                    CMDBENCH_UNIT_USEC, &m::kPerTransfer);
    h.row_metric_ex(row, "msgs/sec", one_way * static_cast<double>(plan.iterations) / (us / 1e6),
                    CMDBENCH_UNIT_PER_SEC, &m::kMessageRate);
    h.row_hist_ex(row, "rtt", rtt, plan.transfers == 1 ? &m::kRoundTrip : &m::kBurstRoundTrip);
    h.row_end(row);
}

// Sync, then the timed iterations with one clock read per iteration boundary.
void run_size(const Run &s, Peer &peer, const SizePlan &plan) {
    const cmdbench_host &h = s.host();
    cmdbench_hist *rtt = h.hist_create(s.ctx());
    if (!rtt) fail("hist_create failed");
    peer.sync();
    const size_t size = static_cast<size_t>(plan.size);
    const uint64_t start = h.now_ns();
    uint64_t mark = start;
    for (int64_t i = 0; i < plan.iterations; ++i) {
        peer.exchange(size, plan.transfers);
        const uint64_t now = h.now_ns();
        h.hist_record(rtt, now - mark);
        mark = now;
    }
    report_row(s, plan, mark - start, rtt);
}

// The tests of one connection (a custom run, or one rstream phase).
struct Phase {
    uint32_t hint;
    std::vector<SizePlan> plans;
};

uint32_t custom_hint(Hint hint, int64_t transfer_count) {
    switch (hint) {
    case Hint::None:
        return CMDBENCH_HINT_NONE;
    case Hint::Latency:
        return CMDBENCH_HINT_LATENCY;
    case Hint::Bandwidth:
        return CMDBENCH_HINT_BANDWIDTH;
    case Hint::Auto:
        break;
    }
    return transfer_count == 1 ? CMDBENCH_HINT_LATENCY : CMDBENCH_HINT_BANDWIDTH;
}

// rstream's standard suite: latency tests of every size, then
// bandwidth tests of every size, counts by the count rule.
std::vector<Phase> plan_phases(const Settings &p) {
    const std::vector<int64_t> &sizes = p.sizes;
    std::vector<Phase> phases;
    if (p.suite == Suite::Rstream) {
        Phase latency{CMDBENCH_HINT_LATENCY, {}}, bandwidth{CMDBENCH_HINT_BANDWIDTH, {}};
        for (int64_t size : sizes) {
            latency.plans.push_back({size, 1, rstream_count(size)});
            bandwidth.plans.push_back({size, rstream_count(size), 1});
        }
        phases.push_back(latency);
        phases.push_back(bandwidth);
        return phases;
    }
    const int64_t iterations = p.iterations, transfer_count = p.transfer_count;
    Phase custom{custom_hint(p.hint, transfer_count), {}};
    for (int64_t size : sizes)
        custom.plans.push_back({size, transfer_count ? transfer_count : rstream_count(size),
                                iterations ? iterations : rstream_count(size)});
    phases.push_back(custom);
    return phases;
}

// What every phase shares: one work buffer for every size and the verify
// counters running on across phases, as rstream's, and the progress made.
struct Exchange {
    Run &s;
    IoMode mode;
    std::vector<uint8_t> buf;
    Pattern pattern;
    bool verify = false;
    size_t total = 0, done = 0;

    // The phase's sizes on one connection, then its close.
    void run_phase(const Phase &phase, Socket sock) {
        DataChannel channel(s, std::move(sock), mode);
        Peer peer(channel, buf, verify ? &pattern : nullptr, s.is_client());
        for (const SizePlan &plan : phase.plans) {
            run_size(s, peer, plan);
            s.host().progress(s.ctx(), ++done, total);
        }
        channel.close();
    }
};

// The server's side of one phase. rstream -T f (`fork_server`): the
// server's children run the phases; the parent only accepts and waits.
void serve_phase(Exchange &ex, Listener &listener, const Phase &phase, bool fork_server) {
    listener.set_hint(phase.hint);
    if (!fork_server) {
        ex.run_phase(phase, listener.accept_client());
        return;
    }
    // The parent keeps its copy of the socket until the child is done,
    // then only closes it (a shutdown would end the child's connection).
    Socket sock = listener.accept_client(false);
    run_in_child(ex.s, [&] {
        listener.configure_accepted(sock.fd());
        ex.run_phase(phase, std::move(sock));
    });
    ex.done += phase.plans.size();
    ex.s.host().progress(ex.s.ctx(), ex.done, ex.total);
}

void run_pingpong(Run &s) {
    const Settings p = read_settings(s, params());
    const std::vector<Phase> phases = plan_phases(p);
    const int64_t largest = *std::max_element(p.sizes.begin(), p.sizes.end());
    Exchange ex{
        s, p, std::vector<uint8_t>(std::max<size_t>(size_t(largest), kSyncBytes)), {}, p.verify};
    for (const Phase &phase : phases)
        ex.total += phase.plans.size();

    // The server keeps one listener for every phase: a client reconnects at
    // once and must find it.
    if (s.is_client()) {
        const uint16_t server_port = learn_port(s, p.port);
        for (const Phase &phase : phases)
            ex.run_phase(phase, connect_to_server(s, server_port, phase.hint, p.client_bind));
        return;
    }
    Listener listener(s, p.port, phases.front().hint);
    announce_port(s, listener, p.port);
    for (const Phase &phase : phases)
        serve_phase(ex, listener, phase, p.fork);
}

} // namespace

const cmdbench_test &pingpong_test() {
    static const cmdbench_test test = cmdbench::support::test_descriptor(
        "pingpong", "rstream's ping-pong: round-trip latency and bandwidth per transfer size",
        CMDBENCH_TEST_USES_TRANSPORT, params().size(), params().table(),
        cmdbench::support::guarded_run<Run, run_pingpong>);
    return test;
}

} // namespace cmdbench::stream

// verbs-lat with qp_type = "ud" (perftest's ib_send_lat -c UD): SEND answered
// by SEND over UD QPs, the rows and timing of the RC send ping-pong. UD does
// not retransmit: a lost ping or pong would stall the ping-pong for good, so
// a round trip that gets no answer within kLossTimeoutNs fails the run,
// naming the QP and the message.
#include "lat/lat_loop.hpp"
#include "qp/cq_wait.hpp"
#include "qp/ud_conn.hpp"
#include "workers.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace verbs {
namespace {

constexpr int kSendDepth = 128;
constexpr uint64_t kSignalEvery = 32; // as RC latency: the answer proves arrival
constexpr int kRecvDepth = 64;
// Far above any round trip, even under emulation; the server waits twice as
// long, so the client's message is the one reported.
constexpr uint64_t kLossTimeoutNs = 5'000'000'000;

uint8_t pattern_byte(uint64_t seq, size_t i) {
    return uint8_t(seq * 131 + i * 7 + 1);
}

constexpr uint64_t kNoDrop = std::numeric_limits<uint64_t>::max();

// Tests only: with CMDBENCH_VERBS_TEST_UD_DROP_ANSWER=N the server takes QP
// 0's message N (counted from 0 over the run) and never answers it, as if
// the answer were lost, so that the lab can show the loss timeout.
uint64_t answer_to_drop_for_test(const Run &run) {
    const char *value = std::getenv("CMDBENCH_VERBS_TEST_UD_DROP_ANSWER");
    if (run.is_client() || !value || !*value) return kNoDrop;
    const uint64_t n = std::strtoull(value, nullptr, 10);
    run.log(CMDBENCH_LOG_WARN,
            "verbs-lat: CMDBENCH_VERBS_TEST_UD_DROP_ANSWER: QP 0 leaves message " +
                std::to_string(n) + " unanswered");
    return n;
}

class UdLatPeer {
  public:
    UdLatPeer(UdConn &conn, const Params &p, Run &run, bool client, uint64_t drop)
        : conn_(conn), p_(p), run_(run), client_(client), one_{&conn},
          drop_(conn.index() == 0 ? drop : kNoDrop) {}

    void post_receives() {
        for (int i = 0; i < kRecvDepth; ++i)
            conn_.post_recv(0);
    }

    void ping(size_t size) {
        send(size);
        receive(size);
    }

    void pong(size_t size) {
        receive(size);
        if (recv_seq_ - 1 == drop_) return; // the test hook's lost answer
        send(size);
    }

    void settle() {
        while (completed_ < last_signalled_)
            handle(wait(kLossTimeoutNs, "UD send completions"));
    }

  private:
    static constexpr int kBatch = 16;

    void send(size_t size) {
        uint8_t *buf = conn_.send_buf();
        if (p_.verify)
            for (size_t i = 0; i < size; ++i)
                buf[i] = pattern_byte(send_seq_, i);
        ++send_seq_;
        if (posted_ - completed_ >= kSendDepth - 1) settle();
        const uint64_t k = ++posted_;
        const bool signaled = k % kSignalEvery == 0;
        conn_.post_send(uint32_t(size), signaled, k);
        if (signaled) last_signalled_ = k;
    }

    void receive(size_t size) {
        const uint64_t limit = client_ ? kLossTimeoutNs : 2 * kLossTimeoutNs;
        while (received_ == 0) {
            const int n = wait(limit, "waiting for the peer's UD SEND");
            if (n == 0)
                fail(std::string("verbs-lat: qp_type = \"ud\": QP ") +
                     std::to_string(conn_.index()) + ": " +
                     (client_ ? "no answer to message " : "no message ") +
                     std::to_string(recv_seq_) + " within " +
                     std::to_string(limit / 1'000'000'000) +
                     " s: a datagram was lost (UD does not retransmit)");
            handle(n);
        }
        --received_;
        if (last_len_ != size + kGrhBytes)
            fail("verbs-lat: UD: received " + std::to_string(last_len_) + " bytes, want " +
                 std::to_string(size) + " + the " + std::to_string(kGrhBytes) + "-byte GRH");
        if (p_.verify) check(size, recv_seq_);
        ++recv_seq_;
    }

    // Completions, or 0 after `limit_ns` without any (bounded by the run's
    // deadline too).
    int wait(uint64_t limit_ns, const char *what) {
        const uint64_t start = run_.host().now_ns();
        for (unsigned spins = 0;; ++spins) {
            const int n = poll_cq(conn_, wc_, kBatch, what);
            if (n > 0) return n;
            if (p_.mode == WaitMode::Event)
                wait_for_event(one_, run_.stopper(), what);
            else if ((spins & 0xfff) != 0xfff)
                continue;
            run_.stopper().check(what);
            if (run_.host().now_ns() - start > limit_ns) return 0;
        }
    }

    void handle(int n) {
        for (int i = 0; i < n; ++i) {
            if (wc_[i].opcode & IBV_WC_RECV) {
                ++received_;
                last_len_ = wc_[i].byte_len;
                if (!client_) conn_.learn_peer(wc_[i]);
                conn_.post_recv(0);
            } else {
                completed_ = std::max<uint64_t>(completed_, wc_[i].wr_id);
            }
        }
    }

    void check(size_t size, uint64_t seq) const {
        const uint8_t *buf = conn_.payload();
        for (size_t i = 0; i < size; ++i)
            if (buf[i] != pattern_byte(seq, i))
                fail("verbs-lat: data verification failed: UD QP " + std::to_string(conn_.index()) +
                     ", message " + std::to_string(seq) + ", byte " + std::to_string(i));
    }

    UdConn &conn_;
    const Params &p_;
    Run &run_;
    bool client_;
    const std::vector<UdConn *> one_; // this QP alone, for event waits (no allocation per wait)
    const uint64_t drop_;             // the message left unanswered (tests), or kNoDrop
    ibv_wc wc_[kBatch];
    uint64_t posted_ = 0, completed_ = 0, last_signalled_ = 0;
    int received_ = 0;
    size_t last_len_ = 0;
    uint64_t send_seq_ = 0, recv_seq_ = 0;
};

} // namespace

void run_ud_lat(Run &run, const Params &p) {
    UdSpec spec;
    spec.region = (std::max<size_t>(size_t(p.largest_size()), 64) + 63) / 64 * 64;
    spec.send_depth = kSendDepth;
    spec.recv_depth = kRecvDepth;
    spec.inline_size = p.inline_size;
    spec.inline_explicit = p.inline_explicit;
    UdSession session(run, p, spec);
    const std::vector<int64_t> sizes = ud_sizes(p, session.mtu(), "verbs-lat");
    const bool client = run.is_client();

    const uint64_t drop = answer_to_drop_for_test(run);
    std::vector<std::unique_ptr<UdLatPeer>> peers;
    for (const auto &c : session.conns()) {
        peers.push_back(std::make_unique<UdLatPeer>(*c, p, run, client, drop));
        peers.back()->post_receives();
    }
    run.barrier("receives posted");

    size_t done = 0;
    for (int64_t size : sizes) {
        const size_t len = size_t(size);
        std::vector<ThreadTimes> times = thread_times(run, p.threads);
        run.barrier("lat " + std::to_string(size));
        run.check_stop("verbs-lat");
        if (!client) late_start_for_test(run);
        run_workers(run, p.threads, [&](int thread) {
            for (UdConn *c : qps_of_thread(session.conns(), thread, p.threads))
                time_round_trips(run, p, *peers[c->index()], len, times[size_t(thread)]);
        });
        run.barrier("lat " + std::to_string(size) + " done");
        // The RC send row: payload bytes, the GRH not counted.
        if (client) report_lat(run, p, size, times, true);
        run.host().progress(run.ctx(), ++done, sizes.size());
    }
    session.finish(run);
}

} // namespace verbs

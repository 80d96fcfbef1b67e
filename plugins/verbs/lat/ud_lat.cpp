// verbs-lat with qp_type = "ud" (perftest's ib_send_lat -c UD): SEND answered
// by SEND over UD QPs, the rows and timing of the RC send ping-pong. UD does
// not retransmit: a lost ping or pong would stall the ping-pong for good, so
// a round trip that gets no answer within kLossTimeoutNs fails the run,
// naming the QP and the message.
#include "lat/lat_runner.hpp"
#include "qp/cq_wait.hpp"
#include "qp/ud_conn.hpp"

#include <algorithm>
#include <limits>

namespace cmdbench::verbs {
namespace {

// Far above any round trip, even under emulation; the server waits twice as
// long, so the client's message is the one reported.
constexpr uint64_t kLossTimeoutNs = 5'000'000'000;

constexpr uint64_t kNoDrop = std::numeric_limits<uint64_t>::max();

class UdLatPeer {
  public:
    UdLatPeer(UdConn &conn, const Params &p, Run &run)
        : conn_(conn), p_(p), run_(run), client_(run.is_client()), one_{&conn},
          drop_(client_ || conn.index() != 0 ? kNoDrop
                                             : faults::unanswered_message(run).value_or(kNoDrop)) {}

    void prepare(size_t) {} // UD moves SENDs only: nothing to set up per size

    void post_receives() {
        for (int i = 0; i < kLatRecvDepth; ++i)
            conn_.post_recv(0);
    }

    void ping(size_t size) {
        send(size);
        receive(size);
    }

    void pong(size_t size) {
        receive(size);
        if (recv_seq_ - 1 == drop_) return; // a lab check's lost answer
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
        if (posted_ - completed_ >= kLatSendDepth - 1) settle();
        const uint64_t k = ++posted_;
        const bool signaled = k % kLatSignalEvery == 0;
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
    const uint64_t drop_;             // the message left unanswered (faults.hpp), or kNoDrop
    ibv_wc wc_[kBatch];
    uint64_t posted_ = 0, completed_ = 0, last_signalled_ = 0;
    int received_ = 0;
    size_t last_len_ = 0;
    uint64_t send_seq_ = 0, recv_seq_ = 0;
};

struct UdLat {
    using QpSet = UdQpSet;
    using Peer = UdLatPeer;
    static std::vector<int64_t> sizes(const Params &p, const QpSet &qp_set) {
        return ud_sizes(p.sizes, false, qp_set.mtu(), "verbs-lat");
    }
};

} // namespace

void run_ud_lat(Run &run, const Params &p) {
    run_lat_over<UdLat>(run, p);
}

} // namespace cmdbench::verbs

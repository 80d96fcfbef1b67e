// verbs-lat over RC QPs, the Kind RcLat of lat_runner.hpp: ping-pong latency
// (perftest's ib_send_lat, ib_write_lat, ib_read_lat). send: SEND answered by
// SEND, each side keeps receives posted; write: each side RDMA-WRITEs into the
// peer's receive region and busy-reads the last byte of its own for the peer's
// write (the ib_write_lat method); read: the client RDMA-READs the server's
// send region, the server stays passive; fetch_add, cmp_swap: as read, one
// 8-byte atomic on the server's target (atomics.hpp). The client times every
// round trip (one READ or atomic is one round trip); QPs run one after another
// on their thread, threads at once.
#include "lat/lat_runner.hpp"
#include "qp/cq_wait.hpp"
#include "qp/rc_qp_set.hpp"

#include <algorithm>
#include <atomic>

namespace cmdbench::verbs {
namespace {

// The write method's arrival mark in a message's last byte: never 0, so a
// cleared byte cannot look like an arrival.
uint8_t tag_of(uint64_t seq) {
    return uint8_t(seq % 255 + 1);
}

// One QP's side of the ping-pong; counters run on across sizes.
class LatPeer {
  public:
    LatPeer(Conn &conn, const Params &p, Run &run)
        : conn_(conn), p_(p), stop_(run.stopper()), op_what_(op_name(p.op)),
          one_sided_op_(is_one_sided(p.op)), atomics_(p.op) {}

    void prepare(size_t size) {
        if (p_.op == Op::Write) conn_.recv_buf()[size - 1] = 0;
        if (p_.op == Op::Read) {
            for (size_t i = 0; i < size; ++i)
                conn_.send_buf()[i] = pattern_byte(0, i);
            conn_.prepare_read(one_sided_, uint32_t(size));
        }
        if (is_atomic(p_.op)) conn_.prepare_atomic(one_sided_, atomic_opcode(p_.op));
    }

    void post_receives() {
        for (int i = 0; i < kLatRecvDepth; ++i)
            conn_.post_recv(0);
    }

    // The client's round trip: ping, then wait for the pong. The one-sided
    // path is small enough to inline into the timed loop: a call and its
    // saved registers are time in every round trip (most under emulation).
    [[gnu::always_inline]] void ping(size_t size) {
        if (one_sided_op_) {
            const bool atomic = p_.op != Op::Read; // nothing to settle: one in flight
            if (atomic) {
                one_sided_.wr.wr.atomic.compare_add = atomics_.compare_add();
                one_sided_.wr.wr.atomic.swap = atomics_.swap();
            }
            conn_.post_prepared(one_sided_, ++posted_);
            last_signalled_ = posted_;
            while (completed_ < posted_)
                handle(wait_cq(conn_, p_.mode, wc_, kBatch, stop_, op_what_));
            if (!atomic) {
                if (p_.verify) check(size, 0);
                return;
            }
            if (p_.verify) check_atomic_result(conn_, atomics_);
            atomics_.next();
            return;
        }
        ping_two_sided(size);
    }

    // The server's side of a round trip.
    void pong(size_t size) {
        receive(size);
        send(size);
    }

    // Reaps the completions of the signalled sends posted so far (those
    // after the last one never complete on their own: their peer answered).
    void settle() {
        while (completed_ < last_signalled_)
            handle(wait_cq(conn_, p_.mode, wc_, kBatch, stop_, "send completions"));
    }

  private:
    static constexpr int kBatch = 16;

    [[gnu::noinline]] void ping_two_sided(size_t size) {
        send(size);
        receive(size);
    }

    void post(ibv_wr_opcode opcode, size_t size) {
        // Among kLatSendDepth - 1 sends one is signalled: settling frees the queue.
        if (posted_ - completed_ >= kLatSendDepth - 1) settle();
        const uint64_t k = ++posted_;
        const bool signaled = k % kLatSignalEvery == 0;
        conn_.post(opcode, uint32_t(size), signaled, k);
        if (signaled) last_signalled_ = k;
    }

    void send(size_t size) {
        uint8_t *buf = conn_.send_buf();
        if (p_.verify)
            for (size_t i = 0; i < size; ++i)
                buf[i] = pattern_byte(send_seq_, i);
        if (p_.op == Op::Write) buf[size - 1] = tag_of(send_seq_);
        ++send_seq_;
        post(p_.op == Op::Write ? IBV_WR_RDMA_WRITE : IBV_WR_SEND, size);
    }

    void receive(size_t size) {
        if (p_.op == Op::Write) {
            wait_tag(size);
        } else {
            while (received_ == 0)
                handle(wait_cq(conn_, p_.mode, wc_, kBatch, stop_, "waiting for the peer's SEND"));
            --received_;
            if (last_len_ != size)
                fail("verbs-lat: received " + std::to_string(last_len_) + " bytes, want " +
                     std::to_string(size));
        }
        if (p_.verify) check(size, recv_seq_);
        ++recv_seq_;
    }

    // Busy-reads the last byte of the receive region until the peer's write
    // lands (event mode too: an RDMA WRITE makes no completion here).
    void wait_tag(size_t size) {
        // An acquire load, so the message's other bytes are read after its
        // tag (a fence after a volatile loop would do, but TSan rejects fences).
        const uint8_t *last = conn_.recv_buf() + size - 1;
        const uint8_t want = tag_of(recv_seq_);
        for (unsigned spins = 0; __atomic_load_n(last, __ATOMIC_ACQUIRE) != want; ++spins) {
            if ((spins & 0xfff) != 0xfff) continue;
            stop_.check("waiting for the peer's RDMA WRITE");
            if (posted_ - completed_ > kLatSendDepth / 2)
                handle(poll_cq(conn_, wc_, kBatch, "RDMA WRITE"));
        }
    }

    void handle(int n) {
        for (int i = 0; i < n; ++i) {
            if (wc_[i].opcode & IBV_WC_RECV) {
                ++received_;
                last_len_ = wc_[i].byte_len;
                conn_.post_recv(0);
            } else {
                // A completion covers the unsignalled sends before it.
                completed_ = std::max<uint64_t>(completed_, wc_[i].wr_id);
            }
        }
    }

    void check(size_t size, uint64_t seq) const {
        const uint8_t *buf = conn_.recv_buf();
        const size_t checked = p_.op == Op::Write ? size - 1 : size;
        for (size_t i = 0; i < checked; ++i)
            if (buf[i] != pattern_byte(seq, i))
                fail("verbs-lat: data verification failed: QP " + std::to_string(conn_.index()) +
                     ", message " + std::to_string(seq) + ", byte " + std::to_string(i));
    }

    Conn &conn_;
    const Params &p_;
    const Stopper &stop_;
    const char *const op_what_; // op_name(p.op), looked up once
    const bool one_sided_op_;   // read, the atomics: one request in flight, waited for
    ibv_wc wc_[kBatch];
    uint64_t posted_ = 0, completed_ = 0, last_signalled_ = 0; // sends, by number
    int received_ = 0;
    size_t last_len_ = 0;
    uint64_t send_seq_ = 0, recv_seq_ = 0;
    AtomicSeq atomics_;
    OneSidedWr one_sided_; // read, the atomics: the request every round trip posts
};

struct RcLat {
    using QpSet = RcQpSet;
    using Peer = LatPeer;
    static std::vector<int64_t> sizes(const Params &p, const RcQpSet &) { return p.sizes; }
};

} // namespace

void run_rc_lat(Run &run, const Params &p) {
    run_lat_over<RcLat>(run, p);
}

} // namespace cmdbench::verbs

// The latency tests' timed ping-pong and their row, one for RC
// (verbs_lat.cpp) and UD (ud_lat.cpp) QPs alike: anything with ping(size),
// pong(size) and settle(); and what both kinds of peer share.
#ifndef CMDBENCH_VERBS_LAT_LOOP_HPP
#define CMDBENCH_VERBS_LAT_LOOP_HPP

#include "run/verbs_run.hpp"
#include "verbs_params.hpp"

#include <cmdbench/plugin-support/clock.hpp>
#include <cstddef>
#include <vector>

namespace cmdbench::verbs {

constexpr int kLatSendDepth = 128; // sends in flight before we reap completions
// A send asks for a completion only this often (a READ or atomic always:
// its answer is the data). A signalled send on every round trip costs a
// completion to reap, and in event mode a wake-up of its own; the peer's
// answer already says the message arrived, so its buffer is free for the
// next one.
constexpr uint64_t kLatSignalEvery = 32;
constexpr int kLatRecvDepth = 64; // receives kept posted (op = send)

// verify: byte i of message `seq` (each side numbers its messages from 0).
inline uint8_t pattern_byte(uint64_t seq, size_t i) {
    return uint8_t(seq * 131 + i * 7 + 1);
}

// One cache line per thread: the timed loops write these every round trip.
// The clock is made with them, before the size's barrier, so that the
// rate it converts ticks with is measured over at least that wait.
struct alignas(64) ThreadTimes {
    cmdbench_hist *rtt = nullptr;
    uint64_t sum_ns = 0;
    uint64_t count = 0;
    cmdbench::support::TickClock clock;
};

// One empty ThreadTimes (with its host histogram) per thread.
std::vector<ThreadTimes> thread_times(Run &run, int threads);

// A thread's samples on their way to its histogram: kept here in the
// clock's ticks and recorded in batches, in nanoseconds, after the clock has
// been read, so that no round trip carries the conversion or the call into
// the host that records it.
class SampleBatch {
  public:
    SampleBatch(const cmdbench_host &host, ThreadTimes &mine) : host_(host), mine_(mine) {}
    // Keeps a sample of `ticks`; true when that filled the batch and it went
    // to the histogram.
    bool add(uint64_t ticks) {
        samples_[kept_++] = ticks;
        if (kept_ < kSize) return false;
        flush();
        return true;
    }
    void flush() {
        if (kept_ == 0) return;
        const double ns_per_tick = mine_.clock.ns_per_tick();
        for (size_t i = 0; i < kept_; ++i) {
            const auto ns = uint64_t(double(samples_[i]) * ns_per_tick + 0.5);
            mine_.sum_ns += ns;
            host_.hist_record(mine_.rtt, ns);
        }
        mine_.count += kept_;
        kept_ = 0;
    }

  private:
    static constexpr size_t kSize = 512;
    const cmdbench_host &host_;
    ThreadTimes &mine_;
    uint64_t samples_[kSize];
    size_t kept_ = 0;
};

// One QP's round trips of one size. Both sides run the same count: one
// start round trip, `warmup`, then `iterations`; the client times the last
// ones. The start round trip is never timed: it carries the peer's way out
// of the barrier before it (a control-channel message and a wake-up, up to
// milliseconds under emulation), which would otherwise be the first sample
// and, at 1000 samples, the p99.9 (docs/verbs.md). One clock read per round
// trip, as perftest's: a round trip ends where the next begins, except
// after a batch of samples went to the histogram (the clock is read again).
// A counter that stepped back (it cannot where the clock counts the TSC:
// the kernel keeps time with it only when it is synchronized) counts 0.
template <class Peer>
void time_round_trips(Run &run, const Params &p, Peer &peer, size_t len, ThreadTimes &mine) {
    const cmdbench::support::TickClock &clock = mine.clock;
    const int64_t rounds = 1 + p.warmup + p.iterations;
    if (!run.is_client()) {
        for (int64_t k = 0; k < rounds; ++k)
            peer.pong(len);
    } else {
        SampleBatch batch(run.host(), mine);
        peer.ping(len);
        uint64_t t0 = clock.now();
        for (int64_t k = 1; k < rounds; ++k) {
            peer.ping(len);
            const uint64_t t1 = clock.now();
            const uint64_t ticks = t1 > t0 ? t1 - t0 : 0;
            t0 = t1;
            if (k > p.warmup && batch.add(ticks)) t0 = clock.now();
        }
        batch.flush();
    }
    peer.settle();
}

// The client's row for one size, every thread's samples merged. `one_way`:
// usec/xfer is half the round trip and both directions count as moved
// (send, write; perftest halves those), else one READ or atomic is one
// round trip.
void report_lat(Run &run, const Params &p, int64_t size, const std::vector<ThreadTimes> &times,
                bool one_way);

} // namespace cmdbench::verbs

#endif

// The host's clock read in place: cmdbench_host::now_ns is CLOCK_MONOTONIC
// (plugin.h), so a timed loop reads it itself rather than call into the
// host for every sample; under emulation each call costs a visible share
// of a round trip. TickClock is the cheaper clock of the tightest loops
// (docs/verbs.md, "The clock").
#ifndef CMDBENCH_PLUGIN_SUPPORT_CLOCK_HPP
#define CMDBENCH_PLUGIN_SUPPORT_CLOCK_HPP

#include <cstdint>
#include <ctime>
#include <fstream>
#include <string>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace cmdbench::support {

inline uint64_t monotonic_ns() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

// True where the kernel keeps CLOCK_MONOTONIC with the CPU's time-stamp
// counter (x86 clocksource "tsc"). The kernel selects it only for a counter
// that runs at one rate on every CPU, and switches away when its watchdog
// sees it drift, so there the counter measures the same time as the clock.
inline bool kernel_keeps_time_with_tsc() {
#if defined(__x86_64__)
    std::ifstream in("/sys/devices/system/clocksource/clocksource0/current_clocksource");
    std::string name;
    return bool(in >> name) && name == "tsc";
#else
    return false;
#endif
}

// Ticks for a timed loop: the time-stamp counter where the kernel keeps
// time with it (one instruction, where clock_gettime() adds the vDSO's
// conversion: 0.1-0.2 us a read under emulation, ~1% of a 20 us round
// trip), converted to nanoseconds at the rate the counter ran against
// CLOCK_MONOTONIC since the clock was made; elsewhere CLOCK_MONOTONIC's
// nanoseconds themselves. Either way a sample reads as CLOCK_MONOTONIC
// would have timed it.
class TickClock {
  public:
    // counter_allowed = false: CLOCK_MONOTONIC's nanoseconds wherever it runs.
    explicit TickClock(bool counter_allowed = true)
        : tsc_(counter_allowed && kernel_keeps_time_with_tsc()) {
        if (tsc_) start_ = pair();
    }
    // "tsc" or "monotonic": what the ticks count, for a run's settings.
    const char *source() const { return tsc_ ? "tsc" : "monotonic"; }
    uint64_t now() const {
#if defined(__x86_64__)
        if (tsc_) return __rdtsc();
#endif
        return monotonic_ns();
    }
    // Nanoseconds per tick, measured from the clock's making until now
    // (1 for CLOCK_MONOTONIC). Call it after the ticks it converts.
    double ns_per_tick() {
        if (!tsc_) return 1.0;
        const Pair at = pair();
        if (at.tsc > start_.tsc && at.ns > start_.ns)
            rate_ = double(at.ns - start_.ns) / double(at.tsc - start_.tsc);
        return rate_;
    }

  private:
    struct Pair {
        uint64_t tsc = 0, ns = 0;
    };
    // The counter and the clock at one instant: the clock read between two
    // counter reads, in the tightest of a few tries, so a preemption
    // between the reads cannot skew the rate.
    Pair pair() const {
        Pair best;
        uint64_t narrowest = UINT64_MAX;
        for (int i = 0; i < 8; ++i) {
            const uint64_t before = now();
            const uint64_t ns = monotonic_ns();
            const uint64_t after = now();
            if (after >= before && after - before < narrowest) {
                narrowest = after - before;
                best = {before + (after - before) / 2, ns};
            }
        }
        return best;
    }

    bool tsc_;
    Pair start_;
    double rate_ = 1.0;
};

} // namespace cmdbench::support

#endif

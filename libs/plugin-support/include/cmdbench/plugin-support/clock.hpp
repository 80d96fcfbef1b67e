// The host's clock read in place: cmdbench_host::now_ns is CLOCK_MONOTONIC
// (plugin.h), so a timed loop reads it itself rather than call into the
// host for every sample; under emulation each call costs a visible share
// of a round trip.
#ifndef CMDBENCH_PLUGIN_SUPPORT_CLOCK_HPP
#define CMDBENCH_PLUGIN_SUPPORT_CLOCK_HPP

#include <cstdint>
#include <ctime>

namespace cmdbench::support {

inline uint64_t monotonic_ns() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

} // namespace cmdbench::support

#endif

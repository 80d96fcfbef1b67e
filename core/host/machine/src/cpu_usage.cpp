#include "cmdbench/host/machine/cpu_usage.hpp"

#include <cmath>
#include <sys/resource.h>

namespace cmdbench {
namespace {

double to_seconds(const timeval &tv) {
    return double(tv.tv_sec) + double(tv.tv_usec) / 1e6;
}

} // namespace

CpuTime process_cpu_time() {
    // RUSAGE_SELF rather than the thread: tests do their work on threads of
    // their own, and the kernel's work for them counts as theirs.
    rusage ru{};
    if (getrusage(RUSAGE_SELF, &ru) != 0) return {};
    return {to_seconds(ru.ru_utime), to_seconds(ru.ru_stime)};
}

CpuTime cpu_time_since(const CpuTime &start) {
    CpuTime now = process_cpu_time();
    if (!now.measured() || !start.measured()) return {};
    return {now.user_s - start.user_s, now.sys_s - start.sys_s};
}

int64_t cpu_seconds_to_us(double seconds) {
    if (!(seconds >= 0)) return -1;
    return int64_t(std::llround(seconds * 1e6));
}

double cpu_us_to_seconds(int64_t us) {
    return us < 0 ? -1 : double(us) / 1e6;
}

} // namespace cmdbench

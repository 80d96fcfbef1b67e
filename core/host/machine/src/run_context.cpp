// The machine a run happens on, read here in the host for the context block
// of the results: the report library only formats what it is given.
#include "cmdbench/host/machine/run_context.hpp"

#include "cmdbench/host/machine/machine_load.hpp"

#include <ctime>
#include <fstream>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>

namespace cmdbench {
namespace {

std::string trim(const std::string &s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return "";
    const auto last = s.find_last_not_of(" \t\r\n");
    return s.substr(first, last - first + 1);
}

// The value of the first "<key> : value" line of /proc/cpuinfo, or "".
std::string cpuinfo_field(const std::string &key) {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        const auto colon = line.find(':');
        if (colon != std::string::npos && trim(line.substr(0, colon)) == key)
            return trim(line.substr(colon + 1));
    }
    return "";
}

std::string utc_now_iso8601() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

} // namespace

RunContext collect_context() {
    RunContext c;
    struct utsname u {};
    if (uname(&u) == 0) {
        c.hostname = u.nodename;
        c.kernel = u.release;
    }
    if (c.hostname.empty()) {
        char name[256] = {};
        if (gethostname(name, sizeof name - 1) == 0) c.hostname = name;
    }
    c.cpu_model = cpuinfo_field("model name");
    // Not every architecture has "model name" (arm64 does not).
    if (c.cpu_model.empty()) c.cpu_model = u.machine;
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    c.cpu_count = online > 0 ? static_cast<unsigned>(online) : std::thread::hardware_concurrency();
#ifdef CMDBENCH_VERSION
    c.cmdbench_version = CMDBENCH_VERSION;
#endif
    c.start_time = utc_now_iso8601();
    c.conditions = current_conditions();
    return c;
}

} // namespace cmdbench

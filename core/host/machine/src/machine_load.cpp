#include "cmdbench/host/machine/machine_load.hpp"

#include <algorithm>
#include <cctype>
#include <dirent.h>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace cmdbench {
namespace {

std::string read_text(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

bool all_digits(const char *s) {
    if (!*s) return false;
    for (; *s; ++s)
        if (!std::isdigit(static_cast<unsigned char>(*s))) return false;
    return true;
}

// The first line of /proc/stat: "cpu  user nice system idle iowait irq
// softirq steal guest guest_nice" (guest time is already in user).
bool machine_ticks(uint64_t &busy, uint64_t &total) {
    std::istringstream in(read_text("/proc/stat"));
    std::string label;
    uint64_t v[8] = {};
    if (!(in >> label) || label != "cpu") return false;
    for (auto &x : v)
        if (!(in >> x)) return false;
    const uint64_t idle = v[3] + v[4];
    busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
    total = busy + idle;
    return true;
}

struct ProcTimes {
    long ppid = 0;
    uint64_t ticks = 0; // utime + stime + cutime + cstime
};

// /proc/PID/stat: "pid (comm) state ppid ..." with utime..cstime the 14th
// to 17th fields; comm may hold spaces and parentheses, so parse after the
// last ')'.
bool proc_times(const std::string &pid, ProcTimes &out) {
    const std::string text = read_text("/proc/" + pid + "/stat");
    const auto close = text.rfind(')');
    if (close == std::string::npos) return false;
    std::istringstream in(text.substr(close + 1));
    std::string field;
    std::vector<std::string> f; // f[0] is field 3 (state)
    while (f.size() < 15 && in >> field)
        f.push_back(field);
    if (f.size() < 15) return false;
    try {
        out.ppid = std::stol(f[1]);
        out.ticks =
            std::stoull(f[11]) + std::stoull(f[12]) + std::stoull(f[13]) + std::stoull(f[14]);
    } catch (const std::exception &) {
        return false;
    }
    return true;
}

// CPU ticks of this process and every live descendant, including what
// they have reaped: the run's own client and local server (with the
// children it forks per session).
uint64_t own_tree_ticks() {
    std::map<long, ProcTimes> procs;
    if (DIR *d = opendir("/proc")) {
        while (const dirent *e = readdir(d)) {
            ProcTimes t;
            if (all_digits(e->d_name) && proc_times(e->d_name, t)) procs[std::stol(e->d_name)] = t;
        }
        closedir(d);
    }
    std::set<long> tree{long(getpid())};
    // Parents may have higher pids than their children: repeat until stable.
    for (bool grew = true; grew;) {
        grew = false;
        for (const auto &[pid, t] : procs)
            if (!tree.count(pid) && tree.count(t.ppid)) grew = tree.insert(pid).second || grew;
    }
    uint64_t sum = 0;
    for (long pid : tree)
        if (auto it = procs.find(pid); it != procs.end()) sum += it->second.ticks;
    return sum;
}

} // namespace

std::optional<std::array<double, 3>> parse_loadavg(const std::string &text) {
    std::istringstream in(text);
    std::array<double, 3> a{};
    for (double &x : a)
        if (!(in >> x) || x < 0) return std::nullopt;
    return a;
}

std::string cpu_governor(const std::string &cpu_dir) {
    std::set<std::string> names;
    if (DIR *d = opendir(cpu_dir.c_str())) {
        while (const dirent *e = readdir(d)) {
            const std::string name = e->d_name;
            if (name.rfind("cpu", 0) != 0 || !all_digits(name.c_str() + 3)) continue;
            std::string g = read_text(cpu_dir + "/" + name + "/cpufreq/scaling_governor");
            g.erase(
                std::remove_if(g.begin(), g.end(), [](unsigned char c) { return std::isspace(c); }),
                g.end());
            if (!g.empty()) names.insert(g);
        }
        closedir(d);
    }
    std::string out;
    for (const auto &n : names)
        out += (out.empty() ? "" : ",") + n;
    return out.empty() ? "unknown" : out;
}

RunConditions current_conditions() {
    RunConditions c;
    c.loadavg = parse_loadavg(read_text("/proc/loadavg"));
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    c.cpu_count = online > 0 ? unsigned(online) : 1;
    c.cpu_governor = cpu_governor();
    return c;
}

CpuSnapshot take_cpu_snapshot() {
    CpuSnapshot s;
    s.own_tree = own_tree_ticks();
    s.valid = machine_ticks(s.machine_busy, s.machine_total);
    return s;
}

std::optional<double> foreign_cpu_share(const CpuSnapshot &before, const CpuSnapshot &after) {
    if (!before.valid || !after.valid || after.machine_total <= before.machine_total)
        return std::nullopt;
    const double total = double(after.machine_total - before.machine_total);
    const double busy = double(after.machine_busy) - double(before.machine_busy);
    const double own = double(after.own_tree) - double(before.own_tree);
    // Tick rounding and a child that ended unreaped can make ours exceed the
    // machine's: clamp rather than report a negative load.
    return std::clamp((busy - own) / total, 0.0, 1.0);
}

} // namespace cmdbench

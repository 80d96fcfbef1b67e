// sysfs: /sys/class/infiniband/DEV/ports/N/{counters,hw_counters}/NAME and
// /sys/class/net/IF/statistics/NAME, one number per file; procfs: the
// Tcp and TcpExt tables (counter_reader.hpp).
#include "cmdbench/host/machine/counter_reader.hpp"

#include "cmdbench/host/machine/sysfs_files.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cmdbench {
namespace {

namespace fs = std::filesystem;
using Values = std::map<std::string, uint64_t>;

// The TCP counters kept: segments, retransmits and their causes, errors and
// drops. TcpExt has over a hundred; most say nothing of a benchmark's path.
const char *const kTcpNames[] = {"InSegs",       "OutSegs", "RetransSegs", "InErrs",
                                 "InCsumErrors", "OutRsts", "EstabResets", "AttemptFails"};
const char *const kTcpExtNames[] = {
    "TCPLostRetransmit", "TCPTimeouts",   "TCPSynRetrans",  "TCPFastRetrans", "TCPSlowStartRetrans",
    "TCPRetransFail",    "TCPLossProbes", "TCPBacklogDrop", "TCPOFODrop",     "TCPRcvQDrop",
    "TCPAbortOnTimeout", "ListenDrops",   "ListenOverflows"};

// A counter file's value; unset when it cannot be read or is not a number
// (a counter the driver refuses to read, a setting such as `lifespan`).
std::optional<uint64_t> read_number(const fs::path &file) {
    const std::string line = first_line(file);
    if (line.empty() || line.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    try {
        return std::stoull(line);
    } catch (const std::exception &) {
        return std::nullopt;
    }
}

// Every numeric file of `dir` into `out`; whether the directory had any.
bool read_dir(const fs::path &dir, Values &out) {
    bool any = false;
    for (const std::string &name : dir_entries(dir)) {
        if (name == "lifespan") continue; // mlx5: how long values are cached, in ms
        if (const auto v = read_number(dir / name)) {
            out[name] = *v;
            any = true;
        }
    }
    return any;
}

std::optional<Values> read_port_counters(const fs::path &sys, const std::string &dev,
                                         unsigned port) {
    const fs::path dir = sys / "class" / "infiniband" / dev / "ports" / std::to_string(port);
    Values v;
    const bool port_counters = read_dir(dir / "counters", v);
    const bool hw = read_dir(dir / "hw_counters", v);
    if (!port_counters && !hw) return std::nullopt;
    return v;
}

std::optional<Values> read_interface(const fs::path &sys, const std::string &ifname) {
    Values v;
    if (!read_dir(sys / "class" / "net" / ifname / "statistics", v)) return std::nullopt;
    return v;
}

std::string file_text(const fs::path &file) {
    std::ifstream in(file);
    if (!in) return {};
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

template <size_t N> void keep(const Values &all, const char *const (&names)[N], Values &out) {
    for (const char *n : names)
        if (const auto it = all.find(n); it != all.end()) out[n] = it->second;
}

std::optional<Values> read_tcp(const fs::path &proc) {
    Values v;
    keep(parse_proc_net_table(file_text(proc / "net" / "snmp"), "Tcp"), kTcpNames, v);
    keep(parse_proc_net_table(file_text(proc / "net" / "netstat"), "TcpExt"), kTcpExtNames, v);
    if (v.empty()) return std::nullopt;
    return v;
}

void add_unique(std::vector<std::string> &list, const std::string &name) {
    if (name.empty() || name == kUnknown) return;
    if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
}

} // namespace

std::map<std::string, uint64_t> parse_proc_net_table(const std::string &text,
                                                     const std::string &prefix) {
    std::istringstream in(text);
    const std::string head = prefix + ":";
    std::string line;
    std::vector<std::string> names;
    Values out;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string first;
        if (!(words >> first) || first != head) continue;
        std::vector<std::string> items;
        for (std::string w; words >> w;)
            items.push_back(w);
        if (names.empty()) {
            names = std::move(items);
            continue;
        }
        for (size_t i = 0; i < names.size() && i < items.size(); ++i) {
            // Tcp's MaxConn is -1, a limit rather than a counter.
            if (items[i].find_first_not_of("0123456789") != std::string::npos) continue;
            try {
                out[names[i]] = std::stoull(items[i]);
            } catch (const std::exception &) {
            }
        }
        break;
    }
    return out;
}

std::string counter_machine(const std::string &procfs_root) {
    const fs::path proc(procfs_root);
    const std::string boot = first_line(proc / "sys" / "kernel" / "random" / "boot_id");
    std::error_code ec;
    const fs::path netns = fs::read_symlink(proc / "self" / "ns" / "net", ec);
    if (boot.empty() || ec) return {};
    return boot + " " + netns.string();
}

CounterSources counter_sources(const SidePath &path) {
    CounterSources s;
    add_unique(s.interfaces, path.interface.name);
    for (const RdmaDevice &d : path.devices) {
        if (d.name.empty() || d.name == kUnknown) continue;
        s.rdma_ports.emplace_back(d.name, d.port);
        add_unique(s.interfaces, d.netdev); // RoCE's netdev: where its packets go
    }
    s.tcp = !path.rdma;
    return s;
}

CounterSnapshot read_counters(const CounterSources &sources, const std::string &sysfs_root,
                              const std::string &procfs_root) {
    const fs::path sys(sysfs_root);
    CounterSnapshot out;
    for (const auto &[dev, port] : sources.rdma_ports)
        out["rdma " + dev + "/" + std::to_string(port)] = read_port_counters(sys, dev, port);
    for (const std::string &ifname : sources.interfaces)
        out["net " + ifname] = read_interface(sys, ifname);
    if (sources.tcp) out["tcp"] = read_tcp(fs::path(procfs_root));
    return out;
}

SideCounters counter_deltas(const CounterSnapshot &before, const CounterSnapshot &after) {
    SideCounters out;
    for (const auto &[source, now] : after) {
        auto &slot = out[source];
        const auto then = before.find(source);
        if (!now || then == before.end() || !then->second) continue;
        slot.emplace();
        for (const auto &[name, value] : *now)
            if (const auto was = then->second->find(name); was != then->second->end())
                (*slot)[name] = int64_t(value - was->second);
    }
    return out;
}

} // namespace cmdbench

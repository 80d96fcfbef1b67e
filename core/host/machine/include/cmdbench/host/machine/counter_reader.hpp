// Reading the counters a run is judged by (docs/counters.md): an RDMA
// port's counters and hw_counters, a network interface's statistics, and
// the TCP MIBs of /proc/net/snmp and /proc/net/netstat. Read before and
// after a run, never during it: a read is a few small sysfs and procfs files.
#pragma once
#include "cmdbench/report/path_context.hpp"
#include "cmdbench/report/run_counters.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cmdbench {

struct CounterSources {
    std::vector<std::pair<std::string, unsigned>> rdma_ports; // device, port
    std::vector<std::string> interfaces;                      // network interfaces
    bool tcp = false;                                         // the TCP MIBs (per namespace)
};

// The sources of a side's data path: its RDMA devices' ports and their
// netdevs, its interface, and for a run without RDMA the TCP counters.
CounterSources counter_sources(const SidePath &path);

// Source ("rdma rxe0/1", "net lo", "tcp") -> counter -> value; a source
// that could not be read at all maps to nothing.
using CounterSnapshot = std::map<std::string, std::optional<std::map<std::string, uint64_t>>>;

// `sysfs_root` is "/sys", `procfs_root` "/proc" (tests pass fake trees).
CounterSnapshot read_counters(const CounterSources &sources, const std::string &sysfs_root = "/sys",
                              const std::string &procfs_root = "/proc");

// after - before, per counter both have; a source absent from either is
// absent. Counters are unsigned and wrap: the difference is taken modulo 2^64.
SideCounters counter_deltas(const CounterSnapshot &before, const CounterSnapshot &after);

// The values of the `prefix` ("Tcp", "TcpExt") lines of a /proc/net/snmp
// or /proc/net/netstat text: a line of names, then a line of values.
std::map<std::string, uint64_t> parse_proc_net_table(const std::string &text,
                                                     const std::string &prefix);

// Which counters this process reads: its boot and network namespace, the
// same text for every process that reads the same ones; "" when unknown.
std::string counter_machine(const std::string &procfs_root = "/proc");

// Reads a side's counters before its run and the deltas after it.
class CounterWatch {
  public:
    explicit CounterWatch(CounterSources sources) : sources_(std::move(sources)) {
        before_ = read_counters(sources_);
    }
    SideCounters deltas() const { return counter_deltas(before_, read_counters(sources_)); }

  private:
    CounterSources sources_;
    CounterSnapshot before_;
};

} // namespace cmdbench

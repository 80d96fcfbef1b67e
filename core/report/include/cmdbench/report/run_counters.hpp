// Hardware and driver counters over a run (docs/counters.md): what each side
// read before and after its part of the run, as deltas, and the fixed
// classification of counter names that the tables and `expect` use.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cmdbench {

// One side's deltas: source ("rdma rxe0/1", "net eth0", "tcp") -> counter
// name -> change over the run. A source whose counters could not be read
// (no device, no permission) is there without a map: absent, not zero.
using SideCounters = std::map<std::string, std::optional<std::map<std::string, int64_t>>>;

struct RunCounters {
    std::optional<SideCounters> client;
    std::optional<SideCounters> server; // unset: the server did not say (an older one)
    // Both sides ran on one machine (one boot, one network namespace): they
    // read the same counters, which the sums and lines count once (the
    // client's).
    bool same_machine = false;
    bool empty() const { return !client && !server; }
};

enum class CounterClass { Traffic, Retransmits, Errors, Congestion, Other };
const char *to_string(CounterClass c); // "traffic", "retransmits", "errors", ...

// The class of a counter name, whatever its source: a fixed table of the
// names the kernel's drivers use, then the words in the name.
CounterClass counter_class(const std::string &name);

// The sum of one class's deltas over both sides; unset when no side has
// counters.
std::optional<int64_t> counter_class_sum(const RunCounters &c, CounterClass k);

// The `expect` keys judged on counters: "retransmits" and "counter_errors".
bool is_counter_expectation(const std::string &key);
// Which class an `expect` key sums.
CounterClass counter_expectation_class(const std::string &key);

// "counters: retransmits +15: client rdma rxe0/1 completer_retry_err +12,
// server rdma rxe0/1 duplicate_request +3": one line per class that has a
// non-zero counter (retransmits, errors, congestion), none when all are 0.
std::vector<std::string> counter_lines(const RunCounters &c);

// runs[].counters and back (a reader keeps what it can read of it).
nlohmann::ordered_json run_counters_json(const RunCounters &c);
RunCounters run_counters_from_json(const nlohmann::ordered_json &j);
// One side, as read back from runs[].counters.
nlohmann::ordered_json side_counters_json(const SideCounters &s);
std::optional<SideCounters> side_counters_from_json(const nlohmann::ordered_json &j);

// The server's side as it sends it in its RunEnd: {"machine": "...",
// "sources": {...}}, where "machine" says which counters it read (the
// client compares it with its own to know whether they are the same).
struct WireCounters {
    std::string machine;
    std::optional<SideCounters> sources;
};
std::string wire_counters_text(const SideCounters &s, const std::string &machine);
WireCounters wire_counters_from_text(const std::string &text);

} // namespace cmdbench

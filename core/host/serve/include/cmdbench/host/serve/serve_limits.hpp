// What a `cmdbench serve` lets a client ask of it: upper bounds on the run
// parameters that cost the server memory, connections, threads or time, and
// no privileged data ports. The client names every value of a run, so the
// server checks them before it runs anything (docs/security.md).
#pragma once
#include "cmdbench/base/expected.hpp"
#include "cmdbench/host/params/params.hpp"
#include "cmdbench/host/plugins/registry.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cmdbench {

struct ServeLimits {
    bool enabled = true; // false: --no-limits (the local server of `cmdbench run`)
    bool allow_privileged_ports = false;
    // Parameter name (or "timeout", the run's seconds) -> the largest value
    // allowed; for a list, each element. Parameters not named are bounded
    // only by the plugin's own range.
    std::map<std::string, int64_t> max;

    static ServeLimits defaults();
    // Fine, or why a run with these parameters is refused ("parameter
    // 'sizes' = ...").
    Status check(const std::map<std::string, ParamValue> &params, double timeout_s) const;
};

// The limits of `serve`'s options: the defaults, changed by each "KEY=MAX"
// (MAX a count, with an optional K/M/G/T suffix for powers of 1024, or
// "none"). KEY must be a numeric parameter of a loaded plugin or "timeout".
// Throws std::invalid_argument naming the option and what is wrong.
ServeLimits limits_from_options(const std::vector<std::string> &specs, bool allow_privileged_ports,
                                bool no_limits, const Registry &registry);

// "64M" -> 67108864; throws std::invalid_argument naming `option`.
int64_t parse_byte_count(const std::string &text, const std::string &option);

// The least address space `serve` can work in, measured now: what this
// process maps already, a run thread's stack and room to spare (the
// session table, a connection, a small run), rounded up to whole MiB.
struct MemoryFloor {
    int64_t mapped = 0, stack = 0, minimum = 0;
};
MemoryFloor memory_floor();

// --max-memory: caps the address space of this process (RLIMIT_AS) and of
// the processes it forks. Throws std::invalid_argument, naming the option,
// `as_given` and the allowed range, below memory_floor(): a smaller cap
// would let the server say it listens and then fail to serve anyone.
// Returns a note for the log (e.g. skipped under a sanitizer, whose shadow
// memory needs terabytes of address space).
std::string apply_memory_limit(int64_t bytes, const std::string &as_given);

} // namespace cmdbench

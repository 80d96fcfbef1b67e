// The eight perftest tools cmdbench stands in for, and every option their
// `--help` lists (perftest 4.5), with which tools list it and whether
// cmdbench takes it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace cmdbench::perftest_frontend {

enum ToolBit : unsigned {
    kSendLat = 1u << 0,
    kWriteLat = 1u << 1,
    kReadLat = 1u << 2,
    kAtomicLat = 1u << 3,
    kSendBw = 1u << 4,
    kWriteBw = 1u << 5,
    kReadBw = 1u << 6,
    kAtomicBw = 1u << 7,
};

struct Tool {
    const char *name;   // "ib_write_bw"
    unsigned bit;       // ToolBit
    bool bandwidth;     // verbs-bw, else verbs-lat
    const char *op;     // the verbs tests' `op`
    int64_t size;       // -s default
    int64_t iterations; // -n default, as the tool's --help says
    // perftest's latency convention: SEND and WRITE report half the round
    // trip, READ and atomics the whole of it.
    bool halved() const { return !bandwidth && (op[0] == 's' || op[0] == 'w'); }
    bool atomic() const { return op[0] == 'f'; }
};

// The tool called `name`, or nullptr.
const Tool *find_tool(const std::string &name);
const std::vector<Tool> &tools();

// What cmdbench does with an option.
enum class Support { Taken, Refused };

struct OptionSpec {
    char short_name; // 0: long only
    const char *long_name;
    bool has_arg;
    unsigned tools; // ToolBit mask of the tools whose --help lists it
    Support support;
};

// Every option any of the eight tools lists.
const std::vector<OptionSpec> &option_specs();

} // namespace cmdbench::perftest_frontend

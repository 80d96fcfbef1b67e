// How a scenario's comparison is run and judged (scenario table
// `[comparison]`, docs/scenarios.md): the order repeats run in, and how far
// a variant's repeats may spread before its comparison is flagged.
#pragma once
#include <optional>
#include <string>

namespace cmdbench {

// Interleaved runs round by round (A1 B1 A2 B2 ...), so a slow drift of the
// machine (another job, thermal throttling) hits every variant alike;
// blocked runs each run's repeats back to back (A1 A2 B1 B2).
enum class RunOrder { Interleaved, Blocked };
constexpr const char *kRunOrderNames = "interleaved, blocked";
const char *to_string(RunOrder order);
std::optional<RunOrder> run_order_from(const std::string &name);

// A cell whose repeats spread by more than this share of their median,
// (max - min) / median, is flagged: its ratio is not one to read.
constexpr double kDefaultSpreadLimit = 0.25;
constexpr double kMinSpreadLimit = 0.01;
constexpr double kMaxSpreadLimit = 10;

// The variant ratios are taken against when a scenario (key `baseline`) or a
// results file does not name one.
constexpr const char *kDefaultBaseline = "tcp";

struct ComparisonSettings {
    RunOrder order = RunOrder::Interleaved;
    double spread_limit = kDefaultSpreadLimit;
    bool given = false; // the scenario has a [comparison] table
};

} // namespace cmdbench

// A run's link rate as a number, from what runs[].path recorded: the RDMA
// device's port rate ("2.5 Gb/sec (1X SDR)") or the network interface's
// speed ("10000 Mb/s"). What bandwidth rows are set against (link_fraction,
// docs/results.md) and what `link_fraction` expectations judge.
#pragma once
#include "cmdbench/report/result.hpp"

#include <map>
#include <optional>
#include <string>

namespace cmdbench {

// The fastest rate read as a link's: 1 Pb/s, a thousand times today's
// fastest ports. Above it the text (a results file is anyone's) is not a
// link's rate, and its bits per second could overflow once scaled or summed.
constexpr double kMaxLinkBitsPerSecond = 1e15;

// Bits per second of "2.5 Gb/sec (1X SDR)", "100 Gb/sec (4X EDR)",
// "10000 Mb/s", "25000" (netdev speed, Mb/s); nullopt for "unknown", "-1",
// "0", a rate above kMaxLinkBitsPerSecond and anything else it cannot read.
std::optional<double> parse_link_rate(const std::string &text);

struct LinkRate {
    double bits_per_second = 0;
    std::string name; // "rxe0" or "eth0": the device or interface it belongs to
    std::string text; // as the system said it: "2.5 Gb/sec (1X SDR)", "10000 Mb/s"
};

// The rate of the link the run's data crossed: an RDMA run's device port,
// else the interface; the lower of the two sides when both are known, the
// one side's when only one is; nullopt when neither side's can be read.
std::optional<LinkRate> run_link_rate(const RunPath &path);

// A result's link rate: run_link_rate of its path; for a run on every rail
// at once (runs[].rails), the sum of its rails' rates, named "rxe0+rxe1"
// (nullopt unless every rail's is known).
std::optional<LinkRate> result_link_rate(const RunResult &run);
// The rate a row of the result is set against: for a rail's row
// ("LABEL/ROW") of an all-rails run, that rail's; else result_link_rate.
std::optional<LinkRate> row_link_rate(const RunResult &run, const std::string &row);

// "rxe0 2.5 Gb/s".
std::string link_rate_text(const LinkRate &rate);

// Each bandwidth row's Gb/s over the run's link rate, by row name; empty
// when the rate is unknown or the run has no bandwidth row.
std::map<std::string, double> row_link_fractions(const RunResult &run);

} // namespace cmdbench

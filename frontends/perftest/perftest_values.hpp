// The values of perftest's options: each one read and range-checked, and the
// checks that need several of them.
#pragma once
#include "perftest_options.hpp"

#include <string>

namespace cmdbench::perftest_frontend {

// "-n/--iters", or "--tclass" for a long-only option.
std::string option_name(const OptionSpec &s);

// Stores `arg` (empty for a flag) into `o`; throws UsageError naming the
// option and its allowed range.
void apply_value(Options &o, const OptionSpec &s, const std::string &arg);

double timeout_value(const char *text);

// Checks across options (-l and -Q against -t, UD with -b, ...).
void check_combinations(Options &o);

// -a: 2 .. 2^23, doubling.
std::vector<int64_t> all_sizes();

} // namespace cmdbench::perftest_frontend

// Reads a whole input file (scenario, results) with a bound on its size, so
// /dev/zero or a runaway pipe ends in a message instead of out of memory.
// Pipes are fine (`cmdbench run <(gen)`): the bound is on what is read, and
// on how long a pipe may stay silent.
#pragma once
#include "cmdbench/base/expected.hpp"

#include <cstddef>
#include <string>

namespace cmdbench {

// Scenarios are hand-written TOML of a few KiB; 16 MiB leaves room for
// generated ones without letting the TOML parser near a gigabyte.
constexpr size_t kMaxScenarioBytes = size_t(16) << 20;
// Results files take a few KiB per run (rows, histograms); 256 MiB
// holds a hundred thousand runs, and nlohmann's tree of it still fits in memory.
constexpr size_t kMaxResultsBytes = size_t(256) << 20;

// A pipe or FIFO that gives nothing for this long is given up on (a FIFO
// with no writer would hang a run forever).
constexpr int kInputIdleSeconds = 10;

// The text of `path`, or what went wrong, without the path: "cannot read: No
// such file or directory", "larger than the 16777216-byte limit".
Expected<std::string> read_input_file(const std::string &path, size_t limit);

} // namespace cmdbench

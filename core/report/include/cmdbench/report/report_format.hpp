// Number formatting shared by the reporters (size_str and count_str are
// declared in report.hpp).
#pragma once
#include <cstdint>
#include <string>

namespace cmdbench {

// printf("%.*f"): fixed_str(1.234, 2) == "1.23".
std::string fixed_str(double v, int decimals);

// Shortest text that reads back as the same double ("0.1", "12800000",
// "1e-09").
std::string exact_str(double v);

// A metric value as a table cell, formatted by its cmdbench_unit.
std::string metric_cell(double value, uint32_t unit);

// Table cells (docs/results.md, "Numbers in the table"): rounded, never
// truncated, and never 0.00 for a value that is not 0.
// v with `digits` significant digits, whole digits kept: 0.00123, 12.3, 1235.
std::string significant_str(double v, int digits);
// Counts and rates: exact below 10 000, then 3 significant digits (trailing
// zeros dropped) and a decimal suffix k, M, G, T (2240 -> 2240, 22 400 ->
// 22.4k, 1.5e6 -> 1.5M).
std::string decimal_str(double v);
// Bytes: exact below 1024, then 3 significant digits and a binary suffix
// Ki, Mi, Gi, Ti, Pi (4096 -> 4Ki, 286720 -> 280Ki).
std::string binary_str(double bytes);
// Events per second (decimal_str).
std::string per_sec_str(double v);
// 2 decimals from 0.1 up, 2 significant digits below (0.0031): latencies,
// Gb/s, seconds.
std::string small_str(double v);

// Nanoseconds as microseconds (small_str; histogram table columns).
std::string ns_as_us_str(double ns);

// The unit's name in JSON results ("bytes", "count", "s", "us", "Gb/s", "1/s", "").
const char *unit_label(uint32_t unit);

} // namespace cmdbench

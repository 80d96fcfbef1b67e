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

// Events per second: an integer below 10 000, then k or m with decimals.
std::string per_sec_str(double v);

// Nanoseconds as microseconds with 2 decimals (histogram table columns).
std::string ns_as_us_str(double ns);

// The unit's name in JSON results ("bytes", "count", "s", "us", "Gb/s", "1/s", "").
const char *unit_label(uint32_t unit);

} // namespace cmdbench

// What each side prints, in perftest's layout: the header block, the column
// line, one line per size, the closing dashes; plus cmdbench's percentile
// columns at the end of a latency line.
#pragma once
#include "cmdbench/report/result.hpp"
#include "perftest_options.hpp"

#include <string>
#include <utility>
#include <vector>

namespace cmdbench::perftest_frontend {

// perftest's dashed rule.
const char *rule();

// A run's settings as the plugin recorded them (key, value).
using RunSettings = std::vector<std::pair<std::string, std::string>>;
// The value of `key`, or "".
std::string setting(const RunSettings &settings, const std::string &key);

// The block a side prints once its QPs are connected: the test's title and
// settings (those the run got, `got`, else those asked), how latency is
// reported (one way or round trip), and the QPs' numbers.
std::string header_block(const Options &o, bool server, const RunSettings &got);

// The column names (one line).
std::string column_line(const Options &o);

// The row as perftest's line (with --output, the one figure asked for);
// "" for a row perftest does not print (the per-direction rows of -b).
std::string row_line(const Options &o, const Row &row);

} // namespace cmdbench::perftest_frontend

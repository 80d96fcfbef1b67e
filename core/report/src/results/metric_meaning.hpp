// What a row's metrics mean, whether the plugin declared it (ABI 1.2) or
// not: the one place that knows the metric names the shipped plugins used
// before 1.2 and gives them the meaning they are compared, charted and
// totalled by (docs/plugin-abi.md, "Metric meaning").
#pragma once
#include "cmdbench/report/result.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cmdbench {

// The meaning of a metric or histogram of `row`: as declared, else by the
// pre-1.2 name rules, else undeclared (shown, never compared).
MetricMeaning meaning_of(const Row &row, const Metric &m);
MetricMeaning meaning_of(const Row &row, const HistMetric &h);

// Names in JSON results: "latency", "lower", ["round_trip", ...]. Codes
// outside the tables read as undeclared / none.
const char *kind_name(uint32_t kind);
uint32_t kind_code(const std::string &name);
const char *better_name(uint32_t better);
uint32_t better_code(const std::string &name);
std::vector<std::string> flag_names(uint32_t flags);
uint32_t flag_code(const std::string &name); // 0 for an unknown name

} // namespace cmdbench

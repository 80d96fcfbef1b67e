// What a run produced, independent of how it is reported.
#pragma once
#include "histogram.hpp"
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cmdbench {

struct Metric {
    std::string key;
    double value = 0;
    uint32_t unit = 0; // enum cmdbench_unit
};

struct HistMetric {
    std::string key;
    HistSummary summary;
};

struct Row {
    std::string name;
    std::vector<Metric> metrics;   // in the order the test set them
    std::vector<HistMetric> hists;
};

enum class RunStatus { Ok, Failed, Skipped, TimedOut, Interrupted };
const char *to_string(RunStatus s);

struct RunResult {
    std::string name;      // run label (scenario `name`, or test/transport)
    std::string test;
    std::string transport; // empty for a test without transport
    std::vector<std::pair<std::string, std::string>> params; // key, value text
    RunStatus status = RunStatus::Ok;
    std::string error;     // one line; empty when ok
    std::vector<Row> rows;
    double wall_seconds = 0;
};

struct PluginInfo {
    std::string name, version, file;
    unsigned abi_major = 0, abi_minor = 0;
};

struct RunContext {
    std::string hostname, kernel, cpu_model;
    unsigned cpu_count = 0;
    std::string cmdbench_version;
    std::vector<PluginInfo> plugins;
    std::string scenario_path;
    std::string scenario_text; // the effective scenario (after --set)
    std::string start_time;    // ISO 8601 UTC
};

// Fills hostname, kernel, CPU model/count and start_time from this machine.
RunContext collect_context();

struct Report {
    RunContext context;
    std::vector<RunResult> runs;
};

} // namespace cmdbench

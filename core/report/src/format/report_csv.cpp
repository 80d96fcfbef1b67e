// CSV results (RFC 4180): one line per row, columns for every metric and
// histogram key that appears anywhere in the report (docs/results.md).
#include "cmdbench/report/report.hpp"
#include "cmdbench/report/report_format.hpp"
#include "cmdbench/report/reporter.hpp"
#include "cmdbench/report/run_counters.hpp"

#include <algorithm>

namespace cmdbench {
namespace {

// Quote a field when it holds a comma, a quote or a line break; double
// embedded quotes.
std::string csv_field(const std::string &s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char ch : s) {
        if (ch == '"') q += '"';
        q += ch;
    }
    return q + '"';
}

void add_unique(std::vector<std::string> &keys, const std::string &key) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
}

struct HistStat {
    const char *suffix;
    std::string (*value)(const HistSummary &);
};

std::string u64(uint64_t v) {
    return std::to_string(v);
}

// A percentile of too few samples is an empty field, as a missing metric.
std::string u64(const std::optional<uint64_t> &v) {
    return v ? u64(*v) : "";
}

const HistStat kHistStats[] = {
    {"_count", [](const HistSummary &s) { return u64(s.count); }},
    {"_min_ns", [](const HistSummary &s) { return u64(s.min); }},
    {"_mean_ns", [](const HistSummary &s) { return exact_str(s.mean); }},
    {"_stddev_ns", [](const HistSummary &s) { return exact_str(s.stddev); }},
    {"_p50_ns", [](const HistSummary &s) { return u64(s.p50); }},
    {"_p90_ns", [](const HistSummary &s) { return u64(s.p90); }},
    {"_p99_ns", [](const HistSummary &s) { return u64(s.p99); }},
    {"_p99_9_ns", [](const HistSummary &s) { return u64(s.p999); }},
    {"_p99_99_ns", [](const HistSummary &s) { return u64(s.p9999); }},
    {"_max_ns", [](const HistSummary &s) { return u64(s.max); }},
};

// Seconds of one side's CPU time; empty when that side did not measure.
std::string cpu_field(const CpuTime &t, double CpuTime::*part) {
    return t.measured() ? exact_str(t.*part) : "";
}

// A class of the run's counters summed over its sides, as the table's
// counter lines and the verdicts count it; empty when none were recorded.
std::string counter_field(const RunResult &run, CounterClass k) {
    const auto sum = counter_class_sum(run.counters, k);
    return sum ? std::to_string(*sum) : "";
}

// What the background moved while the run was measured; empty for a run
// without one, or a background whose rows have no Gb/sec.
std::string background_field(const RunResult &run) {
    return run.background && run.background->gbps ? exact_str(*run.background->gbps) : "";
}

void write_line(std::ostream &out, const std::vector<std::string> &fields) {
    for (size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) out << ',';
        out << csv_field(fields[i]);
    }
    out << "\r\n";
}

// The metric and histogram keys of every row of the report, first-seen
// order: one column (or one per statistic) each.
struct CsvColumns {
    std::vector<std::string> metric_keys, hist_keys;
};

CsvColumns columns_of(const Report &report) {
    CsvColumns cols;
    for_each_run(report, [&](const RunResult &run) {
        for (const auto &row : run.rows) {
            for (const auto &m : row.metrics)
                add_unique(cols.metric_keys, m.key);
            for (const auto &h : row.hists)
                add_unique(cols.hist_keys, h.key);
        }
    });
    return cols;
}

std::vector<std::string> header_of(const CsvColumns &cols) {
    std::vector<std::string> header{"run",
                                    "test",
                                    "transport",
                                    "status",
                                    "row",
                                    "group",
                                    "variant",
                                    "repeat",
                                    "cpu_client_user_s",
                                    "cpu_client_sys_s",
                                    "cpu_server_user_s",
                                    "cpu_server_sys_s",
                                    "counters_retransmits",
                                    "counters_errors",
                                    "counters_congestion",
                                    "background_gbps",
                                    "client_rank",
                                    "client_node",
                                    "server_rank",
                                    "server_node"};
    header.insert(header.end(), cols.metric_keys.begin(), cols.metric_keys.end());
    for (const auto &key : cols.hist_keys)
        for (const auto &stat : kHistStats)
            header.push_back(key + stat.suffix);
    return header;
}

// Matrix mode: who measured (the pair's ranks and nodes); empty otherwise.
std::vector<std::string> pair_fields(const RunResult &run) {
    if (!run.pair) return {"", "", "", ""};
    const RunPair &p = *run.pair;
    return {std::to_string(p.client), p.client_node, std::to_string(p.server), p.server_node};
}

// The fixed columns: the run's first four, the row name, then the
// comparison, CPU, counter, background and pair fields of the run (added
// later, so after `row`).
std::vector<std::string> start_line(const RunResult &run, const std::string &row_name) {
    std::vector<std::string> line{run.name,
                                  run.test,
                                  run.transport,
                                  to_string(run.status),
                                  row_name,
                                  run.group,
                                  run.variant,
                                  std::to_string(run.repeat),
                                  cpu_field(run.cpu_client, &CpuTime::user_s),
                                  cpu_field(run.cpu_client, &CpuTime::sys_s),
                                  cpu_field(run.cpu_server, &CpuTime::user_s),
                                  cpu_field(run.cpu_server, &CpuTime::sys_s),
                                  counter_field(run, CounterClass::Retransmits),
                                  counter_field(run, CounterClass::Errors),
                                  counter_field(run, CounterClass::Congestion),
                                  background_field(run)};
    const std::vector<std::string> pair = pair_fields(run);
    line.insert(line.end(), pair.begin(), pair.end());
    return line;
}

// The row's value in each metric column, then each histogram statistic;
// empty where the row has none.
void add_row_values(std::vector<std::string> &line, const Row &row, const CsvColumns &cols) {
    for (const auto &key : cols.metric_keys) {
        auto m = std::find_if(row.metrics.begin(), row.metrics.end(),
                              [&](const Metric &x) { return x.key == key; });
        line.push_back(m == row.metrics.end() ? "" : exact_str(m->value));
    }
    for (const auto &key : cols.hist_keys) {
        auto h = std::find_if(row.hists.begin(), row.hists.end(),
                              [&](const HistMetric &x) { return x.key == key; });
        for (const auto &stat : kHistStats)
            line.push_back(h == row.hists.end() ? "" : stat.value(h->summary));
    }
}

} // namespace

void write_csv(std::ostream &out, const Report &report) {
    const CsvColumns cols = columns_of(report);
    const std::vector<std::string> header = header_of(cols);
    write_line(out, header);
    for_each_run(report, [&](const RunResult &run) {
        // A run without rows (skipped, failed early) still gets a line, so
        // its status is not lost.
        if (run.rows.empty()) {
            std::vector<std::string> line = start_line(run, "");
            line.resize(header.size());
            write_line(out, line);
        }
        for (const auto &row : run.rows) {
            std::vector<std::string> line = start_line(run, row.name);
            add_row_values(line, row, cols);
            write_line(out, line);
        }
    });
}

namespace {

class CsvReporter : public Reporter {
  public:
    void finish(std::ostream &out, const Report &report, const Comparison *) override {
        write_csv(out, report);
    }
};

} // namespace

std::unique_ptr<Reporter> make_csv_reporter() {
    return std::make_unique<CsvReporter>();
}

} // namespace cmdbench

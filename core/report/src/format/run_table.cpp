// The console table's model (run_table.hpp). A run whose rows lead with a
// known tool's metrics (fixed_columns.hpp) gets that tool's layout for those
// columns; everything else is laid out generically, one column per metric
// key and per histogram percentile.
#include "format/run_table.hpp"

#include "cmdbench/report/compare/comparison.hpp"
#include "cmdbench/report/link_rate.hpp"
#include "cmdbench/report/rail_rows.hpp"
#include "cmdbench/report/report.hpp"
#include "cmdbench/report/report_format.hpp"
#include "cmdbench/report/run_totals.hpp"
#include "compare/row_applicability.hpp"

#include <algorithm>
#include <cmdbench/plugin.h>
#include <set>

namespace cmdbench {
namespace {

struct KeyUnit {
    const char *key;
    uint32_t unit;
};

// Metric keys (with the unit of their first appearance) and histogram keys,
// in first-appearance order across the rows.
struct RunKeys {
    std::vector<KeyUnit> metrics; // key points into the run's rows
    std::vector<std::string> hists;
};

RunKeys collect_keys(const RunResult &run) {
    RunKeys keys;
    for (const auto &row : run.rows) {
        for (const auto &m : row.metrics) {
            const bool known = std::any_of(keys.metrics.begin(), keys.metrics.end(),
                                           [&](const KeyUnit &k) { return m.key == k.key; });
            if (!known) keys.metrics.push_back({m.key.c_str(), m.unit});
        }
        for (const auto &h : row.hists)
            if (std::find(keys.hists.begin(), keys.hists.end(), h.key) == keys.hists.end())
                keys.hists.push_back(h.key);
    }
    return keys;
}

// The fixed layout whose metrics every row carries and which lead the key
// order, or none.
const FixedLayout *leading_layout(const RunResult &run, const RunKeys &keys) {
    const auto leads = [&](const FixedLayout &layout) {
        const size_t metrics = layout.size() - 1; // after the name column
        if (keys.metrics.size() < metrics) return false;
        for (size_t i = 0; i < metrics; ++i) {
            const FixedColumn &c = layout[i + 1];
            if (std::string(keys.metrics[i].key) != c.key || keys.metrics[i].unit != c.unit)
                return false;
            for (const auto &row : run.rows)
                if (find_metric(row, c.key) == nullptr) return false;
        }
        return true;
    };
    for (const FixedLayout *layout : fixed_layouts())
        if (leads(*layout)) return layout;
    return nullptr;
}

// Beside a row's bandwidth in Gb/s (decimal gigabits), the same in MiB/s,
// perftest's default unit ("BW average[MB/sec]": 2^20 bytes a second).
std::optional<TableColumn> mib_column(const RunResult &run, const std::string &key) {
    bool bandwidth = false;
    for (const auto &row : run.rows)
        if (const Metric *m = find_metric(row, key))
            bandwidth = bandwidth || (m->unit == CMDBENCH_UNIT_GBPS &&
                                      m->meaning.kind == CMDBENCH_KIND_BANDWIDTH &&
                                      !m->meaning.has(CMDBENCH_METRIC_DETAIL));
    if (!bandwidth) return std::nullopt;
    TableColumn c{"MiB/sec", false, {}};
    for (const auto &row : run.rows) {
        const Metric *m = find_metric(row, key);
        c.cells.push_back(m ? small_str(m->value * 1e9 / 8 / 1048576) : "-");
    }
    return c;
}

// A latency metric's header says which latency it is: "usec/xfer(1-way)",
// "usec/xfer(rtt)"; other metrics keep their key.
std::string metric_header(const RunResult &run, const std::string &key) {
    for (const auto &row : run.rows)
        if (const Metric *m = find_metric(row, key);
            m && m->meaning.kind == CMDBENCH_KIND_LATENCY) {
            if (m->meaning.has(CMDBENCH_METRIC_ONE_WAY)) return key + "(1-way)";
            // "usec/rtt" says it already.
            if (m->meaning.has(CMDBENCH_METRIC_ROUND_TRIP) && key.find("rtt") == std::string::npos)
                return key + "(rtt)";
            return key;
        }
    return key;
}

std::vector<TableColumn> metric_columns(const RunResult &run, const RunKeys &keys, size_t first) {
    std::vector<TableColumn> cols;
    for (size_t i = first; i < keys.metrics.size(); ++i) {
        const std::string key = keys.metrics[i].key;
        TableColumn c{metric_header(run, key), false, {}};
        for (const auto &row : run.rows) {
            const Metric *m = find_metric(row, key);
            c.cells.push_back(m ? metric_cell(m->value, m->unit) : "-");
        }
        cols.push_back(std::move(c));
        if (auto mib = mib_column(run, key)) cols.push_back(std::move(*mib));
    }
    return cols;
}

// How a histogram's columns read (docs/results.md, "Latency"): a message's
// round trip (ROUND_TRIP, not DETAIL) as one-way latency, halved, as the
// comparison, the HTML report and the verdicts give it; any other latency
// whole, under its key ("rtt" for an RDMA READ, a burst's round trip).
struct HistView {
    std::string qualifier; // ",1-way", ",rtt" (the key), or "" (not a latency)
    double divisor = 1;
};

HistView hist_view(const RunResult &run, const std::string &key) {
    for (const auto &row : run.rows)
        if (const HistMetric *h = find_hist(row, key)) {
            const MetricMeaning &m = h->meaning;
            if (m.kind != CMDBENCH_KIND_LATENCY) return {};
            if (m.has(CMDBENCH_METRIC_ROUND_TRIP) && !m.has(CMDBENCH_METRIC_DETAIL))
                return {",1-way", 2};
            return {"," + key, 1};
        }
    return {};
}

std::vector<TableColumn> hist_columns(const RunResult &run, const RunKeys &keys) {
    struct Stat {
        const char *name;
        std::optional<uint64_t> (*value)(const HistSummary &); // none: "-"
    };
    // A percentile of too few samples has no value (min_samples_for).
    static const Stat stats[] = {
        {"min", [](const HistSummary &s) { return std::optional<uint64_t>(s.min); }},
        {"p50", [](const HistSummary &s) { return s.p50; }},
        {"p90", [](const HistSummary &s) { return s.p90; }},
        {"p99", [](const HistSummary &s) { return s.p99; }},
        {"p99.9", [](const HistSummary &s) { return s.p999; }},
        {"max", [](const HistSummary &s) { return std::optional<uint64_t>(s.max); }}};
    // A lone histogram's columns go unprefixed ("p50(us)") unless a metric
    // has such a name already (cmtime's rows carry "min(us)" and "max(us)").
    bool prefixed = keys.hists.size() > 1;
    for (const auto &stat : stats)
        for (const auto &m : keys.metrics)
            prefixed = prefixed || std::string(stat.name) + "(us)" == m.key;
    std::vector<TableColumn> cols;
    for (const auto &key : keys.hists) {
        const HistView view = hist_view(run, key);
        // "p50(us,1-way)"; a prefixed column names its histogram already
        // ("rtt.p50(us,1-way)", "conn.p50(us)").
        const bool own_key = view.divisor == 1 && !view.qualifier.empty();
        const std::string prefix = prefixed ? key + "." : "";
        const std::string unit = "(us" + (prefixed && own_key ? "" : view.qualifier) + ")";
        for (const auto &stat : stats) {
            TableColumn c{prefix + stat.name + unit, false, {}};
            for (const auto &row : run.rows) {
                const HistMetric *h = find_hist(row, key);
                const auto ns = h && h->summary.count > 0 ? stat.value(h->summary) : std::nullopt;
                c.cells.push_back(ns ? ns_as_us_str(static_cast<double>(*ns) / view.divisor) : "-");
            }
            cols.push_back(std::move(c));
        }
    }
    return cols;
}

// The last resort when names still collide (a metric named like a
// prefixed histogram column): number the later ones, "conn.p50(us)#2".
void make_headers_unique(std::vector<TableColumn> &cols) {
    std::set<std::string> seen;
    for (auto &c : cols) {
        std::string name = c.header;
        for (unsigned n = 2; seen.count(name); ++n)
            name = c.header + "#" + std::to_string(n);
        c.header = name;
        seen.insert(name);
    }
}

std::string trim(const std::string &s) {
    const size_t first = s.find_first_not_of(' ');
    if (first == std::string::npos) return {};
    return s.substr(first, s.find_last_not_of(' ') - first + 1);
}

// Where the run's data went: "path: client X" and "path: server Y", one line
// when both sides are alike; then a warning for software RDMA.
std::vector<std::string> path_lines(const RunResult &run) {
    const RunPath &p = run.path;
    std::vector<std::string> lines;
    if (!p.known()) return lines;
    const std::string client = p.client ? side_path_text(*p.client) : kUnknown;
    const std::string server =
        p.server ? side_path_text(*p.server) : std::string("unknown (the server did not say)");
    if (p.client && p.server && client == server) {
        lines.push_back("path: client and server " + client);
    } else {
        if (p.client) lines.push_back("path: client " + client);
        lines.push_back("path: server " + server);
    }
    if (p.software_rdma()) lines.push_back("! " + software_rdma_notice(p.software_drivers()));
    // Where each side ran, when the run placed a side (`cpus`, `numa`).
    const auto asked = [](const std::optional<SidePath> &s) {
        return s && s->affinity && s->affinity->asked();
    };
    if (asked(p.client) || asked(p.server))
        for (const auto &[name, side] : {std::pair{"client", &p.client}, {"server", &p.server}})
            if (*side && (*side)->affinity)
                lines.push_back(std::string("affinity: ") + name + " " +
                                side_affinity_text(*(*side)->affinity));
    return lines;
}

// A run on every rail at once, or of several pairs: when each part ran, and
// where its data went.
std::vector<std::string> part_lines(const std::vector<RailPart> &parts, const std::string &prefix,
                                    const std::string &what) {
    std::vector<std::string> lines;
    if (parts.empty()) return lines;
    std::set<std::string> software;
    for (const RailPart &r : parts) {
        std::string line = prefix + r.label + ": " + to_string(r.status) + ", ran " +
                           fixed_str(r.start_seconds, 2) + "-" +
                           fixed_str(r.start_seconds + r.wall_seconds, 2) + " s";
        if (r.path.client) line += "; client " + side_path_text(*r.path.client);
        if (!r.error.empty()) line += "; " + r.error;
        lines.push_back(line);
        const std::set<std::string> drivers = r.path.software_drivers();
        software.insert(drivers.begin(), drivers.end());
    }
    lines.push_back(what + " all running at once for " +
                    fixed_str(rails_overlap_seconds(parts), 2) + " s; rows without a " +
                    what.substr(0, what.size() - 1) + " label add the " + what + " up");
    if (!software.empty()) lines.push_back("! " + software_rdma_notice(software));
    return lines;
}

std::vector<std::string> rail_lines(const RunResult &run) {
    std::vector<std::string> lines = part_lines(run.rails, "rail ", "rails");
    const std::vector<std::string> pairs = part_lines(run.pairs, "", "pairs");
    lines.insert(lines.end(), pairs.begin(), pairs.end());
    return lines;
}

// "link: rxe0 2.5 Gb/s; bandwidth as a fraction of it: 64k 0.012, 1m 0.41",
// or "" when the rate is unknown or the run has no bandwidth row.
std::string link_line(const RunResult &run) {
    const auto fractions = row_link_fractions(run);
    const auto rate = result_link_rate(run);
    if (fractions.empty() || !rate) return {};
    std::string line = "link: " + link_rate_text(*rate) + "; bandwidth as a fraction of it:";
    std::string sep = " ";
    for (const auto &row : run.rows)
        if (auto f = fractions.find(row.name); f != fractions.end()) {
            line += sep + row.name + " " + fixed_str(f->second, f->second < 0.1 ? 3 : 2);
            sep = ", ";
        }
    return line;
}

} // namespace

std::string run_title(const RunResult &run) {
    std::string title = "== " + run.name + ": test=" + run.test;
    if (!run.transport.empty()) title += " transport=" + run.transport;
    // A variant of its own tells apart runs that the above does not (two
    // variants of a test without a transport, named alike).
    const std::string plain = run.transport.empty() ? run.test : run.transport;
    if (!run.variant.empty() && run.variant != plain) title += " variant=" + run.variant;
    if (run.repeats > 1)
        title += " [rep " + std::to_string(run.repeat) + "/" + std::to_string(run.repeats) + "]";
    if (run.status != RunStatus::Ok) {
        title += std::string(" [") + to_string(run.status);
        if (!run.error.empty()) title += ": " + run.error;
        title += "]";
    }
    return title;
}

// "cpu: client 0.21 s user 0.48 s sys, server 0.19 s user 0.51 s sys; 0.35
// CPU-s/GB": the sides that measured (the server prints its own alone), then
// the cost per GB moved or per connection when both sides did.
std::string cpu_line(const RunResult &run) {
    std::string sides;
    for (const auto &[side, t] :
         {std::pair<const char *, const CpuTime &>{"client", run.cpu_client},
          {"server", run.cpu_server}})
        if (t.measured())
            sides += std::string(sides.empty() ? "" : ", ") + side + " " + fixed_str(t.user_s, 2) +
                     " s user " + fixed_str(t.sys_s, 2) + " s sys";
    if (sides.empty()) return {};
    std::string line = "cpu: " + sides;
    if (auto per_gb = run_cpu_per_gb(run)) line += "; " + fixed_str(*per_gb, 2) + " CPU-s/GB";
    if (auto per_conn = run_cpu_per_conn_us(run))
        line += "; " + fixed_str(*per_conn, 1) + " CPU-us/conn";
    return line;
}

// One line saying what the table leaves out, or "".
std::string hidden_note(size_t hidden) {
    if (hidden == 0) return {};
    return "(" + std::to_string(hidden) + (hidden == 1 ? " row" : " rows") +
           " not shown: steps this run did not time, all unmeasured or 0; the JSON results "
           "keep them)";
}

RunTable run_table(const RunResult &full) {
    RunTable t;
    t.shown = full;
    t.shown.rows.clear();
    for (const auto &row : full.rows)
        if (!row_measured_nothing(row)) t.shown.rows.push_back(row);
    t.hidden = full.rows.size() - t.shown.rows.size();
    if (t.shown.rows.empty()) return t;
    const RunResult &run = t.shown;
    const RunKeys keys = collect_keys(run);
    t.fixed = leading_layout(run, keys);
    if (!t.fixed) {
        TableColumn name{"name", true, {}};
        for (const auto &row : run.rows)
            name.cells.push_back(row.name);
        t.columns.push_back(std::move(name));
    }
    // A fixed layout's bandwidth (rstream's Gb/sec) gets its MiB/s first.
    if (t.fixed)
        for (const FixedColumn &c : *t.fixed)
            if (c.unit == CMDBENCH_UNIT_GBPS)
                if (auto mib = mib_column(run, c.key)) t.columns.push_back(std::move(*mib));
    for (auto &c : metric_columns(run, keys, t.fixed ? t.fixed->size() - 1 : 0))
        t.columns.push_back(std::move(c));
    for (auto &c : hist_columns(run, keys))
        t.columns.push_back(std::move(c));
    make_headers_unique(t.columns);
    return t;
}

std::vector<TableColumn> fixed_cells(const FixedLayout &layout, const RunResult &shown) {
    std::vector<TableColumn> cols;
    for (const FixedColumn &c : layout) {
        TableColumn col{c.key, c.text == CellText::Name, {}};
        for (const auto &row : shown.rows)
            col.cells.push_back(trim(fixed_row(FixedLayout{c}, row, row.name)));
        cols.push_back(std::move(col));
    }
    return cols;
}

namespace {

// "settings: inline_size 236, tx_depth 128": what the test said it used.
std::string settings_line(const RunResult &run) {
    if (run.settings.empty()) return {};
    std::string line = "settings:";
    std::string sep = " ";
    for (const auto &[key, value] : run.settings) {
        line += sep + key + " " + value;
        sep = ", ";
    }
    return line;
}

} // namespace

std::vector<std::string> run_notes(const RunResult &run) {
    std::vector<std::string> lines = path_lines(run);
    if (std::string settings = settings_line(run); !settings.empty())
        lines.push_back(std::move(settings));
    for (auto &line : rail_lines(run))
        lines.push_back(std::move(line));
    if (std::string link = link_line(run); !link.empty()) lines.push_back(std::move(link));
    for (auto &line : background_lines(run))
        lines.push_back(std::move(line));
    for (auto &line : counter_lines(run.counters))
        lines.push_back(std::move(line));
    return lines;
}

} // namespace cmdbench

// Aggregated tables and JSON of cmdbench-cmtime (see cmtime_report.hpp).
#include "cmtime_report.hpp"

#include "cmdbench/report/histogram.hpp"
#include "cmtime_job_report.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace cmdbench::cmtime_frontend {
namespace {

// Absent for a step with too few samples (a p99 of 50 connections is their
// maximum): "-" in the table, null in the JSON.
struct Percentiles {
    std::optional<uint64_t> p50_us, p99_us;
};

std::optional<uint64_t> as_us(const std::optional<uint64_t> &ns) {
    return ns ? std::optional<uint64_t>(*ns / 1000) : std::nullopt;
}

Percentiles percentiles(const cmtime::StepStats &st) {
    cmdbench::Histogram h;
    for (uint64_t v : st.sample_ns)
        h.record(v);
    const cmdbench::HistSummary s = h.summary();
    return {as_us(s.p50), as_us(s.p99)};
}

nlohmann::json optional_json(const std::optional<uint64_t> &v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

std::string optional_text(const std::optional<uint64_t> &v) {
    return v ? std::to_string(*v) : "-";
}

cmtime::StepReport merge_role(const MeshTest &test, bool server, int &count) {
    cmtime::StepReport merged;
    merged.threads = 0;
    count = 0;
    for (const PeerResult &p : test.peers) {
        if (p.server != server) continue;
        cmtime::merge_report(merged, p.report);
        ++count;
    }
    return merged;
}

nlohmann::json report_json(const cmtime::StepReport &r) {
    nlohmann::json steps = nlohmann::json::array();
    for (int s = 0; s < cmtime::kStepCount; ++s) {
        const cmtime::StepStats &st = r.step[s];
        const uint64_t n = r.conns;
        const Percentiles p = percentiles(st);
        steps.push_back({{"step", cmtime::step_label(s)},
                         {"avg_per_conn_us", n ? st.total_us / n : 0},
                         {"total_us", st.total_us},
                         {"us_per_conn", n ? st.sum_us / n : 0},
                         {"sum_us", st.sum_us},
                         {"max_us", st.max_us},
                         {"min_us", st.min_us},
                         {"samples", st.samples},
                         {"p50_us", optional_json(p.p50_us)},
                         {"p99_us", optional_json(p.p99_us)}});
    }
    return {{"label", r.real_qps ? "qp_conn" : "cm_conn"},
            {"conns", r.conns},
            {"threads", r.threads},
            {"steps", steps}};
}

} // namespace

std::string format_aggregate(const cmtime::StepReport &r) {
    std::string table = cmtime::format_table(r);
    // Append the two percentile columns to the header and the step rows.
    std::string out;
    size_t pos = 0;
    int line = 0;
    while (pos < table.size()) {
        const size_t end = table.find('\n', pos);
        std::string text = table.substr(pos, end - pos);
        char extra[48] = "";
        if (line == 2) {
            std::snprintf(extra, sizeof extra, " %10s %10s", "p50(us)", "p99(us)");
        } else if (line > 2) {
            const Percentiles p = percentiles(r.step[line - 3]);
            std::snprintf(extra, sizeof extra, " %10s %10s", optional_text(p.p50_us).c_str(),
                          optional_text(p.p99_us).c_str());
        }
        out += text + extra + "\n";
        pos = end + 1;
        ++line;
    }
    return out;
}

std::string format_mesh(const MeshTest &test) {
    std::string out;
    for (bool server : {false, true}) {
        int count = 0;
        const cmtime::StepReport merged = merge_role(test, server, count);
        if (count == 0) continue;
        out += "Mesh " + test.name + " test: " + std::to_string(merged.conns) + " " +
               (server ? "accepted" : "client") + " connections of " + std::to_string(count) +
               (server ? " server" : " client") + (count == 1 ? "" : "s") + "\n";
        out += format_aggregate(merged);
    }
    return out;
}

std::string format_json(const std::vector<MeshTest> &tests, int peers, const JobSummary *job) {
    // Version 2: p50_us and p99_us may be null (too few samples).
    nlohmann::json doc = {{"schema", "cmdbench-cmtime"}, {"schema_version", 2}, {"peers", peers}};
    if (job) doc["job"] = job_json(*job);
    nlohmann::json list = nlohmann::json::array();
    for (const MeshTest &t : tests) {
        nlohmann::json per_peer = nlohmann::json::array();
        for (const PeerResult &p : t.peers)
            per_peer.push_back({{"index", p.index},
                                {"role", p.server ? "server" : "client"},
                                {"report", report_json(p.report)}});
        nlohmann::json entry = {{"name", t.name}, {"per_peer", per_peer}};
        for (bool server : {false, true}) {
            int count = 0;
            const cmtime::StepReport merged = merge_role(t, server, count);
            entry[server ? "servers" : "clients"] = {{"count", count},
                                                     {"report", report_json(merged)}};
        }
        list.push_back(entry);
    }
    doc["tests"] = list;
    return doc.dump(2) + "\n";
}

} // namespace cmdbench::cmtime_frontend

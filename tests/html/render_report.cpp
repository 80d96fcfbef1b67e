// Writes the HTML comparison report of a hand-made but realistic comparison
// (rsocket against tcp: latency, bandwidth, connection steps, CPU) for the
// headless Chromium test: render_report OUT.html
//
// What the page must show (check_report.sh is told these counts): group
// "pingpong" has a latency chart, two bandwidth charts (the latency rows and
// the bandwidth rows both carry Gb/s and share sizes) and CPU per GB; group
// "connect" has step times, connections/s and CPU per connection: 7 charts.
// Tables, one per group and metric: p50, p99, bandwidth, CPU per GB; steps,
// connections/s, CPU per connection: 7.
#include "cmdbench/report/compare/comparison.hpp"

#include <cmath>
#include <fstream>
#include <iostream>

using namespace cmdbench;

namespace {

const double kSizes[] = {64,    128,   256,   512,    1024,   2048,   4096,   8192,
                         16384, 32768, 65536, 131072, 262144, 524288, 1048576};

// A spread over three repeats around a median, +-3 %.
Spread repeats(double median) {
    return {median, median * 0.97, median * 1.03, 3};
}

CompareRow compare(const std::string &group, const std::string &item, double size, CompareMetric m,
                   std::optional<double> tcp, std::optional<double> rsocket) {
    CompareRow r{group, item, size, m, {}};
    CompareCell base;
    if (tcp) base = {repeats(*tcp), std::nullopt, Verdict::Baseline};
    CompareCell other;
    if (rsocket) {
        other.value = repeats(*rsocket);
        if (!tcp) {
            other.verdict = Verdict::Missing;
        } else {
            other.ratio = *rsocket / *tcp;
            other.verdict =
                std::fabs(*other.ratio - 1) < 0.06 ? Verdict::NoClearDifference : Verdict::Ratio;
        }
    }
    r.cells = {base, other};
    return r;
}

std::string item(double size, const char *suffix) {
    const char *units[] = {"", "k", "m"};
    int u = 0;
    while (size >= 1024 && u < 2) {
        size /= 1024;
        ++u;
    }
    return std::to_string(static_cast<long>(size)) + units[u] + suffix;
}

Comparison comparison() {
    Comparison c;
    c.columns = {"tcp", "rsocket"};
    c.baseline = 0;
    // One-way latency grows with size; rsocket starts lower and streams faster.
    for (const double s : kSizes) {
        const double tcp = 9 + s / 2500, rs = 2.2 + s / 5500;
        const std::string lat = item(s, "_lat");
        c.rows.push_back(compare("pingpong", lat, s, CompareMetric::LatencyP50, tcp, rs));
        c.rows.push_back(
            compare("pingpong", lat, s, CompareMetric::LatencyP99, tcp * 1.8, rs * 1.4));
        // rstream's Gb/sec counts both directions.
        c.rows.push_back(compare("pingpong", lat, s, CompareMetric::Bandwidth,
                                 2 * s * 8 / (tcp * 1000), 2 * s * 8 / (rs * 1000)));
    }
    for (const double s : kSizes)
        c.rows.push_back(compare("pingpong", item(s, "_bw"), s, CompareMetric::Bandwidth,
                                 25 * s / (s + 8000), 46 * s / (s + 3000)));
    c.rows.push_back(compare("pingpong", "whole run", 0, CompareMetric::CpuPerGB, 0.42, 0.11));

    // cmtime's steps: TCP has only the socket calls.
    const struct {
        const char *step;
        std::optional<double> tcp, rsocket;
    } steps[] = {
        {"create id", 3.2, 2.1},
        {"bind addr", std::nullopt, 1.5},
        {"resolve addr", std::nullopt, 25},
        {"resolve route", std::nullopt, 30},
        {"create qp", std::nullopt, 120},
        {"init qp attr", std::nullopt, 0.5},
        {"init qp", std::nullopt, 15},
        {"rtr qp attr", std::nullopt, 1.2},
        {"rtr qp", std::nullopt, 40},
        {"rts qp attr", std::nullopt, 0.6},
        {"rts qp", std::nullopt, 20},
        {"cm connect", 38, 250},
        {"establish", std::nullopt, 5},
        {"disconnect", std::nullopt, 90},
        {"destroy id", 6.5, 6.7},
        {"destroy qp", std::nullopt, 60},
        {"server cm connect", 21, 140},
        {"server destroy id", 5.9, 3},
    };
    for (const auto &s : steps)
        c.rows.push_back(compare("connect", s.step, 0, CompareMetric::StepTime, s.tcp, s.rsocket));
    c.rows.push_back(compare("connect", "full connect", 0, CompareMetric::ConnRate, 18000, 2200));
    c.rows.push_back(compare("connect", "whole run", 0, CompareMetric::CpuPerConn, 45, 310));
    c.notes = {"rsocket: connect repeat 2 of 4: timeout: no reply in 60 s; left out"};
    return c;
}

Report report(const std::string &host, const std::string &variant) {
    Report r;
    r.context.hostname = host;
    r.context.kernel = "6.1.0-28-amd64";
    r.context.cpu_model = "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz";
    r.context.cpu_count = 64;
    r.context.cmdbench_version = "0.1.0";
    r.context.scenario_path = "configs/compare.toml";
    r.context.start_time = "2026-11-29T12:00:00Z";
    RunResult run;
    run.variant = variant;
    r.runs.push_back(run);
    return r;
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::cerr << "usage: render_report OUT.html\n";
        return 2;
    }
    const Report tcp = report("node-a", "tcp"), rsocket = report("node-b", "rsocket");
    std::ofstream out(argv[1]);
    write_html_report(out, comparison(), {&tcp, &rsocket});
    out.close();
    if (!out) {
        std::cerr << "render_report: cannot write " << argv[1] << "\n";
        return 1;
    }
    return 0;
}

// The size and time of the matrix HTML page for a synthetic job of N ranks
// (all-pairs, a latency run; the numbers vary a little, one link is slow):
//   matrix_html N OUT.html
// prints "ranks N pairs P html_bytes B seconds S". bench/matrix-html.sh
// builds it against a host build tree and runs it.
#include "cmdbench/report/matrix/report_matrix.hpp"
#include "cmdbench/report/old_metric_names.hpp"

#include <chrono>
#include <cmdbench/plugin.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace cmdbench;

namespace {

Row latency_row(double one_way_us) {
    Row row;
    row.name = "64_lat";
    row.metrics.push_back({"bytes", 64, CMDBENCH_UNIT_BYTES});
    HistSummary s;
    s.count = 1000;
    s.min = s.max = uint64_t(one_way_us * 2000);
    s.p50 = s.p90 = s.p99 = s.p999 = s.p9999 = s.max;
    row.hists.push_back({"rtt", s});
    give_old_name_meanings(row);
    return row;
}

Report synthetic(int n) {
    Report rep;
    MatrixInfo m;
    m.pattern = "all-pairs";
    m.rounds = unsigned(n - 1);
    m.launcher = "synthetic";
    for (int r = 0; r < n; ++r) {
        char node[32];
        std::snprintf(node, sizeof node, "node%04d", r);
        m.ranks.push_back({r, node, std::string("10.0.0.1:") + std::to_string(7000 + r)});
    }
    rep.matrix = m;
    rep.runs.reserve(size_t(n) * size_t(n - 1));
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            if (i == j) continue;
            RunResult r;
            r.name = "latency";
            r.test = "pingpong";
            r.transport = "tcp";
            r.rows = {latency_row(i == 1 && j == 2 ? 400 : 10 + (i * 7 + j * 13) % 5)};
            r.pair = RunPair{i, j, m.ranks[size_t(i)].node, m.ranks[size_t(j)].node, 1};
            rep.runs.push_back(std::move(r));
        }
    return rep;
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: matrix_html N OUT.html\n");
        return 2;
    }
    const int n = std::atoi(argv[1]);
    if (n < 2 || n > 4096) {
        std::fprintf(stderr, "matrix_html: N must be 2-4096\n");
        return 2;
    }
    const Report rep = synthetic(n);
    const auto start = std::chrono::steady_clock::now();
    std::ostringstream html;
    write_matrix_html(html, rep);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ofstream(argv[2]) << html.str();
    std::printf("ranks %d pairs %zu html_bytes %zu seconds %.2f\n", n, rep.runs.size(),
                html.str().size(), seconds);
    return 0;
}

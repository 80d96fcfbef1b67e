// The latency tests' histograms and rows (see lat_loop.hpp).
#include "lat/lat_loop.hpp"

#include <cmdbench/plugin-support/result_rows.hpp>
#include <cmdbench/plugin-support/size_label.hpp>

namespace cmdbench::verbs {

std::vector<ThreadTimes> thread_times(Run &run, int threads) {
    std::vector<ThreadTimes> times(static_cast<size_t>(threads));
    for (auto &t : times)
        if (!(t.rtt = run.host().hist_create(run.ctx()))) fail("hist_create failed");
    return times;
}

void report_lat(Run &run, const Params &p, int64_t size, const std::vector<ThreadTimes> &times,
                bool one_way) {
    const cmdbench_host &h = run.host();
    cmdbench_hist *rtt = h.hist_create(run.ctx());
    if (!rtt) fail("hist_create failed");
    uint64_t sum = 0, count = 0;
    for (const ThreadTimes &t : times) {
        h.hist_merge(rtt, t.rtt);
        sum += t.sum_ns;
        count += t.count;
    }
    const double mean_us = count ? double(sum) / double(count) / 1000.0 : 0;
    const double moved = double(size) * double(count) * (one_way ? 2.0 : 1.0);
    cmdbench_row *row =
        cmdbench::support::begin_row(h, run.ctx(), cmdbench::support::size_label(size) + "_lat");
    namespace m = cmdbench::support::meaning;
    h.row_metric_ex(row, "bytes", double(size), CMDBENCH_UNIT_BYTES, &m::kMessageSize);
    h.row_metric_ex(row, "xfers", 1, CMDBENCH_UNIT_COUNT, &m::kCount);
    h.row_metric_ex(row, "iters", double(count), CMDBENCH_UNIT_COUNT, &m::kCount);
    // What the round trips carried, not the run's work: no CPU per GB.
    static constexpr cmdbench_metric_meaning kCarried =
        CMDBENCH_MEANING(CMDBENCH_KIND_BYTES, CMDBENCH_BETTER_NONE, 0);
    h.row_metric_ex(row, "total", moved, CMDBENCH_UNIT_BYTES, &kCarried);
    h.row_metric_ex(row, "time", double(sum) / 1e9, CMDBENCH_UNIT_SECONDS, &m::kElapsed);
    // The rtt histogram compares the same as the means.
    h.row_metric_ex(row, "usec/xfer", one_way ? mean_us / 2 : mean_us, CMDBENCH_UNIT_USEC,
                    one_way ? &m::kPerTransferOneWay : &m::kPerTransferRoundTrip);
    h.row_metric_ex(row, "usec/rtt", mean_us, CMDBENCH_UNIT_USEC, &m::kPerTransferRoundTrip);
    h.row_metric_ex(row, "qps", double(p.qps), CMDBENCH_UNIT_COUNT, &m::kCount);
    // send, write: a message each way, which compare halves into one-way
    // latency as for pingpong; a READ or atomic is compared whole.
    h.row_hist_ex(row, "rtt", rtt, one_way ? &m::kRoundTrip : &m::kOpLatency);
    h.row_end(row);
}

} // namespace cmdbench::verbs

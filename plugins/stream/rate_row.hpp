// The metrics every throughput row starts with, one-way and bidirectional
// alike: message size, bytes moved, time, Gb/sec and msgs/sec.
#pragma once

#include <cmdbench/plugin-support/result_rows.hpp>
#include <cmdbench/plugin.h>
#include <cstdint>
#include <string>

// Begins row `name` with those metrics (RunError when row_begin fails).
// `moved`: what the bytes mean (a direction's moved bytes, or a sum row's).
inline cmdbench_row *begin_rate_row(const cmdbench_host &h, cmdbench_ctx *ctx,
                                    const std::string &name, int64_t size, double bytes,
                                    double seconds, double messages,
                                    const cmdbench_metric_meaning &moved) {
    cmdbench_row *row = cmdbench::support::begin_row(h, ctx, name);
    namespace m = cmdbench::support::meaning;
    h.row_metric_ex(row, "bytes", static_cast<double>(size), CMDBENCH_UNIT_BYTES, &m::kMessageSize);
    h.row_metric_ex(row, "total", bytes, CMDBENCH_UNIT_BYTES, &moved);
    h.row_metric_ex(row, "time", seconds, CMDBENCH_UNIT_SECONDS, &m::kElapsed);
    h.row_metric_ex(row, "Gb/sec", bytes * 8.0 / seconds / 1e9, CMDBENCH_UNIT_GBPS, &m::kBandwidth);
    h.row_metric_ex(row, "msgs/sec", messages / seconds, CMDBENCH_UNIT_PER_SEC, &m::kMessageRate);
    return row;
}

// What a run moved, for CPU-per-GB and CPU-per-connection figures. Shared by
// the reporters and the comparison so both count the same way.
#pragma once
#include "cmdbench/report/result.hpp"

#include <optional>

namespace cmdbench {

// Bytes the run moved: the sum of the rows' metrics meant as MOVED bytes
// (stream's "total"); nullopt when no row has one.
std::optional<double> run_bytes(const RunResult &r);

// Connections the run set up: the largest COUNT PER_CONNECTION metric of its
// rows (rdmacm's "conns"); nullopt when no row has one.
std::optional<double> run_connections(const RunResult &r);

// User + system CPU seconds of both sides; nullopt unless both were measured.
std::optional<double> run_cpu_seconds(const RunResult &r);

// Whether a row of the run measures message latency: a compared round-trip
// histogram (pingpong's latency rows, verbs-lat's send and write). A test
// whose other latency runs move no data says so by not marking its bytes
// MOVED (verbs-lat's read and atomics).
bool run_measures_latency(const RunResult &r);

// run_cpu_seconds per 1e9 bytes of run_bytes (none for a run that measures
// latency: its bytes are a by-product), and in microseconds per
// connection of run_connections; nullopt unless both parts exist and the
// divisor is positive.
std::optional<double> run_cpu_per_gb(const RunResult &r);
std::optional<double> run_cpu_per_conn_us(const RunResult &r);

} // namespace cmdbench

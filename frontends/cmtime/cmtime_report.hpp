// What cmdbench-cmtime prints: cmtime's own table per instance, and on the
// controller the mesh's aggregated tables (every peer's connections, with
// p50/p99 per step from a histogram) or one JSON document.
#pragma once
#include "cmdbench/cmtime/step_table.hpp"

#include <string>
#include <vector>

namespace cmdbench::cmtime_frontend {

struct PeerResult {
    int index = 0;
    bool server = false;
    cmtime::StepReport report;
};

// One reported test iteration of the whole mesh.
struct MeshTest {
    std::string name; // "main", "no-qp", "sockets"
    std::vector<PeerResult> peers;
};

// cmtime's table plus p50(us) and p99(us) columns, for merged reports.
std::string format_aggregate(const cmtime::StepReport &merged);

// "Mesh: all N client connections of C clients" tables for both roles.
std::string format_mesh(const MeshTest &test);

struct JobSummary;
// `job`: under a launcher, the document's "job" object (cmtime_job_report.hpp).
std::string format_json(const std::vector<MeshTest> &tests, int peers,
                        const JobSummary *job = nullptr);

} // namespace cmdbench::cmtime_frontend

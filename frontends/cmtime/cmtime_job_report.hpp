// What rank 0 says about the job under a launcher: a summary before the
// tables, and the "job" object of the JSON document (present only then).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cmdbench::cmtime_frontend {

struct JobSummary {
    std::string launcher; // Job::describe(): "PMIx 4.2.2, namespace 1895104513"
    int servers = 0;      // ranks 0 .. servers-1
    uint32_t conns = 0;   // -c
    std::vector<std::string> nodes, addresses; // by rank
};

// "cmtime under a launcher (...): 4 ranks, ..." then one line per node.
std::string format_job_summary(const JobSummary &job);

nlohmann::json job_json(const JobSummary &job);

} // namespace cmdbench::cmtime_frontend

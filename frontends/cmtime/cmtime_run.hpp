// One cmdbench-cmtime instance: election, the mesh exchange, the RDMA or
// socket tests, and the output. Returns the exit status (0 or 1).
#pragma once
#include "cmtime_options.hpp"

namespace cmdbench::cmtime_frontend {

int run_cmtime(const Options &options);

} // namespace cmdbench::cmtime_frontend

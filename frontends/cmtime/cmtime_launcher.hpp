// `cmdbench cmtime` started by a launcher: `mpirun -np P cmdbench cmtime ...`
// or `srun --mpi=pmix -n P cmdbench cmtime ...`. Every rank gets the same
// options, so:
//  - the mesh is wired through the job (Mesh::join_job): rank 0 is the
//    controller, peer index = rank; -C and -p are ignored (a note says so);
//  - -P defaults to the number of ranks (another value is refused);
//  - roles go by rank: ranks 0..M-1 serve (--servers M, 1 .. P-1, default
//    1), the rest connect; -L is refused;
//  - each rank binds its -b / -B address, or its node's default
//    (cmtime_node_address.hpp);
//  - -S meshes every client with every server (cmtime allows only 2 peers);
//  - only rank 0 prints: a summary of the job and the mesh's aggregated
//    tables (or the JSON document); the others print only errors, each
//    line prefixed with "(rank N on NODE)".
// A rank that fails or dies ends every rank with an error naming it.
// A test build can stop a rank once the mesh is wired, right before its
// first connection (cmtime_faults.hpp), so that a test can kill it mid-run.
#pragma once
#include "cmtime_options.hpp"

#include <string>

namespace cmdbench {
class Job;
}

namespace cmdbench::cmtime_frontend {

// The exit status (0, or 1 for usage errors and failures, as cmtime).
int run_cmtime_launched(const Options &options, cmdbench::Job &job);

// A usage error every rank meets alike: rank 0 prints it (and the usage
// text with `usage`); every rank then waits for the others at a barrier
// (bounded), so that no rank's exit makes the launcher end the job before
// rank 0 has spoken. Returns 1.
int refuse_in_job(cmdbench::Job &job, const std::string &message, bool usage);

} // namespace cmdbench::cmtime_frontend

// The cluster tests' fault: CMDBENCH_CMTIME_TEST_STOP_RANK=N (passed with
// mpirun -x) makes rank N stop itself (SIGSTOP) once the mesh is wired, so
// that a test can kill it, or leave it stopped, mid-run.
#include "cmtime_faults.hpp"

#include <csignal>
#include <cstdlib>
#include <string>

namespace cmdbench::cmtime_frontend {

void fault_before_steps(std::size_t rank) {
    const char *stop = std::getenv("CMDBENCH_CMTIME_TEST_STOP_RANK");
    if (stop && std::to_string(rank) == stop) std::raise(SIGSTOP);
}

} // namespace cmdbench::cmtime_frontend

#include "cmdbench/host/machine/shared_cpu.hpp"

#include <sched.h>

namespace cmdbench {

std::string single_cpu_warning() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) != 1) return "";
    int cpu = 0;
    while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set))
        ++cpu;
    return "this process may run on CPU " + std::to_string(cpu) +
           " only (its affinity mask), and so may the local server it starts: client and "
           "server share one CPU and latency measures the scheduler, not the network. Under "
           "mpirun pass --bind-to none (Open MPI binds a single rank to one core); else widen "
           "the mask (taskset) or name a server on another CPU or host";
}

} // namespace cmdbench

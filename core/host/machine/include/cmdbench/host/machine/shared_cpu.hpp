// A client and the local server it starts both confined to one CPU (the
// process's affinity, inherited by the server): every round trip then waits
// for the other side's time slice. Open MPI's default binding for
// `mpirun -np 1` does that (8 ms latency instead of 17 us, measured).
#pragma once
#include <string>

namespace cmdbench {

// The warning to give when this process (and so any child it starts) may
// run on a single CPU only; "" when it may use more, or the mask is
// unreadable.
std::string single_cpu_warning();

} // namespace cmdbench

// Where a fault can be injected into a rank under a launcher. The shipped
// front end links cmtime_faults_none.cpp (nothing happens); the cluster
// tests build a copy of it with tests/cluster/cmtime-faults/, whose version
// reads the fault to inject from the environment. A rank can only be stopped
// between the mesh's wiring and its first connection from inside: a signal
// from outside lands before the mesh or in a step phase of milliseconds.
#pragma once
#include <cstddef>

namespace cmdbench::cmtime_frontend {

// Called by every rank of a launched job once the mesh is wired, right
// before the rank's first connection; `rank` is its index in the mesh.
void fault_before_steps(std::size_t rank);

} // namespace cmdbench::cmtime_frontend

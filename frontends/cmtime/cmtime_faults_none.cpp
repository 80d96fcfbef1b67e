// The shipped front end injects no fault (cmtime_faults.hpp).
#include "cmtime_faults.hpp"

namespace cmdbench::cmtime_frontend {

void fault_before_steps(std::size_t) {}

} // namespace cmdbench::cmtime_frontend

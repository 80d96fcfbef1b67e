#include "cmdbench/host/plan/load_plan.hpp"

namespace cmdbench {

RunSpec alone(const RunSpec &spec) {
    RunSpec r = spec;
    r.background.reset();
    return r;
}

RunSpec under_load(const RunSpec &spec) {
    RunSpec r = spec;
    r.name = spec.name + kUnderLoadSuffix;
    r.variant = spec.variant + kUnderLoadSuffix;
    return r;
}

} // namespace cmdbench

#include "cmdbench/host/plan/pair_plan.hpp"

namespace cmdbench {

std::string pairs_text(unsigned count) {
    return std::to_string(count) + (count == 1 ? " pair" : " pairs");
}

std::string pair_label(size_t k) {
    return "pair " + std::to_string(k + 1);
}

RunSpec pair_count_run(const RunSpec &spec, unsigned count) {
    RunSpec r = spec;
    r.pairs = {count};
    if (spec.pairs_series) {
        r.series = spec.name;
        r.name = spec.name + " (" + pairs_text(count) + ")";
        r.variant = spec.variant + " " + pairs_text(count);
    }
    return r;
}

RunSpec pair_member_run(const RunSpec &spec, size_t k) {
    RunSpec r = spec;
    r.pairs.clear();
    r.pairs_series = false;
    r.name = spec.name + " @" + pair_label(k);
    return r;
}

} // namespace cmdbench

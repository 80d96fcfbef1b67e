// The shipped plugin's faults (see faults.hpp): none.
#include "faults.hpp"

namespace cmdbench::verbs::faults {

std::optional<uint64_t> corrupt_target(const Run &) {
    return std::nullopt;
}

std::optional<uint64_t> unanswered_message(const Run &) {
    return std::nullopt;
}

void start_late(const Run &) {}

} // namespace cmdbench::verbs::faults

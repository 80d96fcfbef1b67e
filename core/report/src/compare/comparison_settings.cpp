#include "cmdbench/report/compare/comparison_settings.hpp"

namespace cmdbench {

const char *to_string(RunOrder order) {
    return order == RunOrder::Blocked ? "blocked" : "interleaved";
}

std::optional<RunOrder> run_order_from(const std::string &name) {
    if (name == "interleaved") return RunOrder::Interleaved;
    if (name == "blocked") return RunOrder::Blocked;
    return std::nullopt;
}

} // namespace cmdbench

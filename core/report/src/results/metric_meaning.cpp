#include "results/metric_meaning.hpp"

#include <iterator>

namespace cmdbench {
namespace {

constexpr const char *kKindNames[] = {"undeclared", "latency", "bandwidth", "rate",
                                      "count",      "bytes",   "duration",  "other"};
constexpr const char *kBetterNames[] = {"none", "lower", "higher"};
constexpr const char *kFlagNames[] = {"round_trip", "per_connection", "message_size", "moved",
                                      "elapsed",    "detail",         "unmeasured",   "one_way"};

template <size_t N> uint32_t index_of(const char *const (&names)[N], const std::string &name) {
    for (size_t i = 0; i < N; ++i)
        if (name == names[i]) return uint32_t(i);
    return 0;
}

} // namespace

const char *kind_name(uint32_t kind) {
    return kind < std::size(kKindNames) ? kKindNames[kind] : kKindNames[0];
}

uint32_t kind_code(const std::string &name) {
    return index_of(kKindNames, name);
}

const char *better_name(uint32_t better) {
    return better < std::size(kBetterNames) ? kBetterNames[better] : kBetterNames[0];
}

uint32_t better_code(const std::string &name) {
    return index_of(kBetterNames, name);
}

std::vector<std::string> flag_names(uint32_t flags) {
    std::vector<std::string> out;
    for (size_t i = 0; i < std::size(kFlagNames); ++i)
        if (flags & (1u << i)) out.push_back(kFlagNames[i]);
    return out;
}

uint32_t flag_code(const std::string &name) {
    for (size_t i = 0; i < std::size(kFlagNames); ++i)
        if (name == kFlagNames[i]) return 1u << i;
    return 0;
}

} // namespace cmdbench

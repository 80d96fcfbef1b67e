// Size row names (see size_label.hpp).
#include "cmdbench/plugin-support/size_label.hpp"

#include <cstdio>

namespace cmdbench::support {

std::string size_label(int64_t size) {
    static const struct {
        int64_t unit;
        char suffix;
    } units[] = {{int64_t{1} << 30, 'g'}, {int64_t{1} << 20, 'm'}, {int64_t{1} << 10, 'k'}};
    char text[32];
    for (const auto &u : units) {
        if (size < u.unit) continue;
        const long long whole = size / u.unit, tenth = (size % u.unit) * 10 / u.unit;
        if (whole < 10 && tenth != 0)
            std::snprintf(text, sizeof text, "%lld.%lld%c", whole, tenth, u.suffix);
        else
            std::snprintf(text, sizeof text, "%lld%c", whole, u.suffix);
        return text;
    }
    std::snprintf(text, sizeof text, "%lld", static_cast<long long>(size));
    return text;
}

} // namespace cmdbench::support

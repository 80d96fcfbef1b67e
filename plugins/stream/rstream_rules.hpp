// rstream's naming and counting rules, kept
// here so rows are named exactly as rstream names them.
#ifndef CMDBENCH_STREAM_RSTREAM_RULES_HPP
#define CMDBENCH_STREAM_RSTREAM_RULES_HPP

#include <cstdint>
#include <cstdio>
#include <string>

namespace stream {

// c(size): iterations of a latency test, transfer count of a bandwidth test.
inline int64_t rstream_count(int64_t size) {
    if (size >= (1 << 20)) return 100;
    if (size >= (1 << 16)) return 1000;
    if (size >= (1 << 10)) return 10000;
    return 100000;
}

// The size rule: binary unit, integer part, and one truncated decimal digit
// when the integer part is below 10 and that digit is not zero.
inline std::string rstream_size_label(int64_t size) {
    static const struct {
        int64_t unit;
        char suffix;
    } units[] = {{int64_t{1} << 30, 'g'}, {int64_t{1} << 20, 'm'}, {int64_t{1} << 10, 'k'}};
    char text[32];
    for (const auto &u : units) {
        if (size < u.unit) continue;
        int64_t whole = size / u.unit;
        int64_t tenth = (size % u.unit) * 10 / u.unit;
        if (whole < 10 && tenth != 0)
            std::snprintf(text, sizeof(text), "%lld.%lld%c", static_cast<long long>(whole),
                          static_cast<long long>(tenth), u.suffix);
        else
            std::snprintf(text, sizeof(text), "%lld%c", static_cast<long long>(whole), u.suffix);
        return text;
    }
    std::snprintf(text, sizeof(text), "%lld", static_cast<long long>(size));
    return text;
}

} // namespace stream

#endif

// rstream's naming and counting rules, kept
// here so rows are named exactly as rstream names them.
#ifndef CMDBENCH_STREAM_RSTREAM_RULES_HPP
#define CMDBENCH_STREAM_RSTREAM_RULES_HPP

#include <cmdbench/plugin-support/size_label.hpp>
#include <cstdint>
#include <string>

namespace cmdbench::stream {

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
    return cmdbench::support::size_label(size);
}

} // namespace cmdbench::stream

#endif

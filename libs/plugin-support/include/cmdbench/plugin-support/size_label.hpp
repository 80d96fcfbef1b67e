// Row names from message sizes, the way rstream names them ("64", "4k",
// "1.5m"), so the rows of every test that uses them join in one comparison.
#ifndef CMDBENCH_PLUGIN_SUPPORT_SIZE_LABEL_HPP
#define CMDBENCH_PLUGIN_SUPPORT_SIZE_LABEL_HPP

#include <cstdint>
#include <string>

namespace cmdbench::support {

// Binary unit, integer part, and one truncated decimal digit when the
// integer part is below 10 and that digit is not zero.
std::string size_label(int64_t size);

} // namespace cmdbench::support

#endif

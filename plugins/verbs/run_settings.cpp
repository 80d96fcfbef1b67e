// The run's device-dependent settings (see run_settings.hpp).
#include "run_settings.hpp"

namespace cmdbench::verbs {

std::string settings_text(const RunSettings &s) {
    const std::string size = "inline data up to " + std::to_string(s.inline_size) + " bytes";
    if (s.inline_explicit) return size + " (inline_size as set) on " + s.device;
    if (s.inline_off_by_device)
        return size + " (inline_size = -1 on " + s.device +
               ": perftest uses no inline data on a device it does not recognize)";
    return size + " (inline_size = -1: perftest's default, as " + s.device + " accepts it)";
}

} // namespace cmdbench::verbs

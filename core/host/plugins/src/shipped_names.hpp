// A third-party plugin may not pass itself off as one shipped with cmdbench
// (the plugins next to the executable): results would name the wrong code.
#pragma once
#include "cmdbench/base/expected.hpp"
#include "cmdbench/host/plugins/registry.hpp"

#include <string>

namespace cmdbench {

// Fine when `incoming` may stay; else why it is refused: it is not shipped
// and a shipped plugin of the same name is loaded.
Status check_shipped_name(const Registry &registry, const LoadedPlugin &incoming,
                          const std::string &shipped_dir);

} // namespace cmdbench

// A third-party plugin may not pass itself off as one shipped with cmdbench
// (the plugins next to the executable): results would name the wrong code.
#pragma once
#include "cmdbench/host/plugins/registry.hpp"

#include <string>

namespace cmdbench {

// Why `incoming` is refused: it is not shipped and a shipped plugin of the
// same name is loaded. Empty when it may stay.
std::string shipped_name_clash(const Registry &registry, const LoadedPlugin &incoming,
                               const std::string &shipped_dir);

} // namespace cmdbench

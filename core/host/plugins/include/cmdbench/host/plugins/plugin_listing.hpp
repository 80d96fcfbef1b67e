// `cmdbench plugins`: what is loaded, as text or JSON.
#pragma once
#include "cmdbench/host/plugins/plugin_loader.hpp"
#include "cmdbench/host/plugins/registry.hpp"

#include <ostream>
#include <vector>

namespace cmdbench {

void list_plugins_text(std::ostream &out, const Registry &registry,
                       const std::vector<LoadFailure> &failures);
void list_plugins_json(std::ostream &out, const Registry &registry,
                       const std::vector<LoadFailure> &failures);

} // namespace cmdbench

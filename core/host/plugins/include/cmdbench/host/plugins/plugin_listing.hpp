// `cmdbench plugins`: what is loaded, as text or JSON. The text listing holds
// the loaded plugins only (refusals are the caller's to say, on stderr); the
// JSON document has a "refused" array too, for programs that read it.
#pragma once
#include "cmdbench/host/plugins/plugin_loader.hpp"
#include "cmdbench/host/plugins/registry.hpp"

#include <ostream>
#include <vector>

namespace cmdbench {

void list_plugins_text(std::ostream &out, const Registry &registry);
void list_plugins_json(std::ostream &out, const Registry &registry,
                       const std::vector<LoadFailure> &failures);

} // namespace cmdbench

// What the dynamic loader itself says about a plugin file, in its own words:
// whether it loads at all, and whether its entry symbol is code (a data
// symbol of that name is found by dlsym too, and calling it would crash).
#pragma once
#include "cmdbench/base/expected.hpp"

#include <string>

namespace cmdbench {

// Fine when `path` dlopens (RTLD_NOW); else dlerror's reason, without the
// path it repeats and without a stale errno text.
Status check_dlopen(const std::string &path);

// Fine when `symbol` in the dlopen handle is a function; else why not
// ("a data object (a variable), not a function"). Never calls it.
Status check_entry_symbol(void *dl_handle, const char *symbol);

} // namespace cmdbench

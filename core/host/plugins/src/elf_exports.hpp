// Whether a shared object exports a symbol, read from its ELF dynamic symbol
// table without loading it: dlopen runs a library's constructors and fails
// on a missing dependency, so it cannot be how a plugin directory's helper
// libraries are told apart from plugins.
#pragma once
#include <string>

namespace cmdbench {

enum class Export {
    yes,    // defined in the dynamic symbol table
    no,     // an ELF shared object of this machine that does not define it
    unknown // not readable as one (not ELF, truncated, no section headers, ...)
};

Export exports_symbol(const std::string &path, const char *symbol);

} // namespace cmdbench

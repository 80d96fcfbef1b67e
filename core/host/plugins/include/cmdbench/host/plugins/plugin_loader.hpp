// Finds plugin files and loads them with Boost.DLL, refusing (with the file
// and the reason) anything that does not honour the ABI in plugin.h.
#pragma once
#include "cmdbench/host/plugins/registry.hpp"

#include <string>
#include <vector>

namespace cmdbench {

// Loads one file and validates its descriptor. The LoadedPlugin's desc points
// at a copy normalised to this host's struct layouts, so the rest of the host
// never reads past a plugin's struct_size. Throws LoadError("<file>: reason").
LoadedPlugin load_plugin(const std::string &path);

// The directories searched by default, in order: <exe dir>/../lib/cmdbench/
// plugins (build and installed trees alike), then CMDBENCH_PLUGIN_PATH.
std::vector<std::string> default_plugin_dirs();
// The first of them: the plugins shipped with this executable ("" if unknown).
std::string shipped_plugin_dir();
// A front end's search path: <exe dir>/`reldir` (where the plugins are seen
// from libexec/cmdbench), then default_plugin_dirs().
std::vector<std::string> frontend_plugin_dirs(const std::string &reldir);

// Every *.so in each directory (sorted by name) and every file named
// directly; a file already in the registry (same canonical path) is skipped.
// Missing directories in the default path are ignored; a missing path named
// by the user is an error.
// A *.so in a directory that does not export the entry point (read from its
// ELF symbol table, without loading it) is a helper library, not a plugin:
// it goes to `skipped`, once, instead of failing every run. A file that does
// export it, or whose symbols cannot be read, or that is named directly, is
// loaded, and any refusal is a failure.
struct LoadFailure {
    std::string file, reason;
};
struct LoadSkip {
    std::string file, reason;
};
std::vector<LoadFailure> load_plugins(Registry &registry, const std::vector<std::string> &paths,
                                      bool paths_must_exist,
                                      std::vector<LoadSkip> *skipped = nullptr);

// The one warning line for a skipped file, after the program's prefix:
// "warning: skipping FILE: REASON".
std::string skip_warning(const LoadSkip &skip);

} // namespace cmdbench

// What a path given as a plugin names, from stat alone. It is never opened
// here: opening a FIFO blocks until something writes to it, and a device or
// a socket is no plugin at all, so both are refused by type before dlopen.
#pragma once
#include <string>

namespace cmdbench {

enum class PluginPathKind {
    directory, // a directory of plugins
    file,      // a regular file, to dlopen
    absent,    // nothing usable there: missing, a dangling symlink, a loop
    other,     // a FIFO, a device, a socket
};

struct PluginPath {
    PluginPathKind kind;
    // What the path is, for every kind but file and directory: "a FIFO
    // (named pipe)", "a symlink loop (Too many levels of symbolic links)",
    // "no such plugin file or directory".
    std::string what;
};

PluginPath inspect_plugin_path(const std::string &path);

} // namespace cmdbench

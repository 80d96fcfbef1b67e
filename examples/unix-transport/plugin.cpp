// Descriptor and entry point of plugin "unix-transport".
//
// The entry point is the ONLY symbol the .so exports (CMakeLists.txt builds
// with hidden visibility; check with `nm -D --defined-only`). It is called
// once, when the host loads the file, and returns a pointer to static data:
// no allocation, no I/O, no threads, nothing that can fail. Everything the
// descriptor points to must live as long as the library is loaded.
#include "unix_transport.hpp"

#include <cmdbench/plugin.h>

namespace {

const cmdbench_transport *const transports[] = {&unix_transport::unix_transport()};

const cmdbench_plugin plugin = {
    sizeof(cmdbench_plugin),
    CMDBENCH_ABI_MAJOR, // the ABI of the header this file was compiled
    CMDBENCH_ABI_MINOR, // against: the host refuses a newer minor
    "unix-transport",
    "0.1.0",
    "AF_UNIX stream sockets as a cmdbench transport (example)",
    sizeof(transports) / sizeof(transports[0]),
    transports,
    0, // tests: none in this plugin
    nullptr,
};

} // namespace

CMDBENCH_PLUGIN_ENTRY {
    return &plugin;
}

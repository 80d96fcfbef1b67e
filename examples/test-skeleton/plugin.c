/*
 * Descriptor and entry point of plugin "connect-only".
 *
 * cmdbench_plugin_entry is the one symbol the .so exports (build with
 * -fvisibility=hidden; CMDBENCH_PLUGIN_ENTRY marks it visible). The host
 * calls it once, at load time, and copies what it needs. It must:
 *  - return a pointer to static data that lives as long as the library;
 *  - do nothing else: no allocation, no I/O, no threads, no failure modes
 *    (a `cmdbench plugins` listing loads every plugin on the path).
 * The host checks abi_major/abi_minor against its own: built for a newer
 * minor than the host has, the plugin is refused with both versions named.
 */
#include "connect_only.h"

#include <cmdbench/plugin.h>
#include <stddef.h>

static const struct cmdbench_test *const tests[] = {&connect_only_test};

static const struct cmdbench_plugin plugin = {
    sizeof(struct cmdbench_plugin),
    CMDBENCH_ABI_MAJOR, /* the ABI this file was compiled against */
    CMDBENCH_ABI_MINOR,
    "connect-only",
    "0.1.0",
    "example test plugin: connection reachability and connect time",
    0, /* transports: none; the test runs over the scenario's */
    NULL,
    sizeof(tests) / sizeof(tests[0]),
    tests,
};

CMDBENCH_PLUGIN_ENTRY {
    return &plugin;
}

// The plugin's and its tests' static descriptors, filled from arrays so the
// counts cannot drift from the lists. The C ABI is untouched: these build the
// same cmdbench_plugin and cmdbench_test structs as hand-written code would.
#ifndef CMDBENCH_PLUGIN_SUPPORT_DESCRIPTORS_HPP
#define CMDBENCH_PLUGIN_SUPPORT_DESCRIPTORS_HPP

#include <cmdbench/plugin.h>
#include <cstddef>
#include <cstdint>

namespace cmdbench::support {

using RunFn = int (*)(const cmdbench_run_env *);
using TestList = const cmdbench_test *const *;
using TransportList = const cmdbench_transport *const *;

struct PluginInfo {
    const char *name;
    const char *version;
    const char *description;
};

constexpr cmdbench_plugin plugin_descriptor(const PluginInfo &info, uint32_t transport_count,
                                            TransportList transports, uint32_t test_count,
                                            TestList tests) {
    return cmdbench_plugin{
        sizeof(cmdbench_plugin), CMDBENCH_ABI_MAJOR, CMDBENCH_ABI_MINOR, info.name,  info.version,
        info.description,        transport_count,    transports,         test_count, tests};
}

// A plugin of tests only.
template <size_t N>
constexpr cmdbench_plugin plugin_descriptor(const PluginInfo &info,
                                            const cmdbench_test *const (&tests)[N]) {
    return plugin_descriptor(info, 0, nullptr, N, tests);
}

// A plugin of transports only.
template <size_t N>
constexpr cmdbench_plugin plugin_descriptor(const PluginInfo &info,
                                            const cmdbench_transport *const (&transports)[N]) {
    return plugin_descriptor(info, N, transports, 0, nullptr);
}

// Transports and tests.
template <size_t T, size_t N>
constexpr cmdbench_plugin plugin_descriptor(const PluginInfo &info,
                                            const cmdbench_transport *const (&transports)[T],
                                            const cmdbench_test *const (&tests)[N]) {
    return plugin_descriptor(info, T, transports, N, tests);
}

constexpr cmdbench_test test_descriptor(const char *name, const char *description, uint32_t flags,
                                        uint32_t param_count, const cmdbench_param *params,
                                        RunFn run) {
    return cmdbench_test{sizeof(cmdbench_test), name, description, flags, param_count, params, run};
}

template <size_t N>
constexpr cmdbench_test test_descriptor(const char *name, const char *description, uint32_t flags,
                                        const cmdbench_param (&params)[N], RunFn run) {
    return test_descriptor(name, description, flags, N, params, run);
}

} // namespace cmdbench::support

#endif

#include "cmdbench/host/scenario/uses_rdma.hpp"

namespace cmdbench {

bool run_uses_rdma(const Registry &registry, const cmdbench_test *test,
                   const cmdbench_transport *transport) {
    if (transport) return (transport->flags & CMDBENCH_TRANSPORT_NEEDS_RDMA) != 0;
    if (!test) return false;
    const std::string plugin = registry.plugin_name_of(test);
    return plugin == "verbs" || plugin == "rdmacm";
}

} // namespace cmdbench

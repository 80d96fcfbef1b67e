#include "local_node.hpp"

#include "host_services.hpp"
#include "test_executor.hpp"

#include <memory>
#include <set>

namespace cmdbench {

std::string local_meeting_node(const Scenario &scenario, const Registry &registry) {
    std::set<std::string> asked;
    for (const RunSpec &spec : scenario.runs) {
        if (spec.transport.empty() || !asked.insert(spec.transport).second) continue;
        const cmdbench_transport *transport = registry.find_transport(spec.transport);
        if (!transport || !transport->local_node) continue;
        auto ctx = std::make_shared<cmdbench_ctx>();
        ctx->params = spec.transport_params;
        ctx->log_prefix = "cmdbench: ";
        if (probe_transport(transport, ctx)) continue;
        char node[256] = {};
        if (transport->local_node(ctx.get(), host_services(), node, sizeof node) == 0 && node[0])
            return node;
    }
    return kLoopbackNode;
}

} // namespace cmdbench

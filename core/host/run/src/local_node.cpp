#include "cmdbench/host/run/local_node.hpp"

#include "cmdbench/host/plugins/host_services.hpp"
#include "cmdbench/host/run/role_run.hpp"

#include <set>

namespace cmdbench {

std::string local_meeting_node(const Scenario &scenario, const Registry &registry) {
    std::set<std::string> asked;
    for (const RunSpec &spec : scenario.runs) {
        if (spec.transport.empty() || !asked.insert(spec.transport).second) continue;
        const cmdbench_transport *transport = registry.find_transport(spec.transport);
        if (!transport || !transport->local_node) continue;
        RoleSetup setup;
        setup.transport = transport;
        setup.inputs.params = spec.transport_params;
        setup.inputs.log_prefix = "cmdbench: ";
        RoleRun role(std::move(setup));
        if (role.probe()) continue;
        char node[256] = {};
        if (transport->local_node(&role.ctx(), host_services(), node, sizeof node) == 0 && node[0])
            return node;
    }
    return kLoopbackNode;
}

} // namespace cmdbench

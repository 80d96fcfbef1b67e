#include "cmdbench/host/run/run_path.hpp"

#include "cmdbench/host/machine/link_context.hpp"

namespace cmdbench {

namespace {

// The address this side's data uses: the run's `bind_address`, else where
// the control connection met.
std::string data_address(const std::map<std::string, ParamValue> &params,
                         const std::string &meeting_host) {
    const auto bind = params.find("bind_address");
    if (bind != params.end())
        if (const auto *text = std::get_if<std::string>(&bind->second); text && !text->empty())
            return *text;
    return meeting_host;
}

} // namespace

SidePath run_side_path(const Registry &registry, const cmdbench_test *test,
                       const cmdbench_transport *transport,
                       const std::map<std::string, ParamValue> &params,
                       const std::string &meeting_host) {
    return local_path(data_address(params, meeting_host), run_uses_rdma(registry, test, transport));
}

CounterSources run_counter_sources(const Registry &registry, const cmdbench_test *test,
                                   const cmdbench_transport *transport,
                                   const std::map<std::string, ParamValue> &params,
                                   const std::string &meeting_host) {
    const std::string address = data_address(params, meeting_host);
    // No active MTU: the counters do not need it, and it costs a device open.
    return counter_sources(describe_path("/sys", address, interface_with_address(address),
                                         run_uses_rdma(registry, test, transport), nullptr,
                                         ibv_gid_table));
}

Expected<int> placement_numa_node(const SidePlacement &placement, const Registry &registry,
                                  const cmdbench_test *test, const cmdbench_transport *transport,
                                  const std::map<std::string, ParamValue> &params,
                                  const std::string &meeting_host) {
    switch (placement.numa) {
    case SidePlacement::Numa::Node:
        return int(placement.node);
    case SidePlacement::Numa::Device:
        return device_numa_node(run_side_path(registry, test, transport, params, meeting_host));
    default:
        return -1;
    }
}

} // namespace cmdbench

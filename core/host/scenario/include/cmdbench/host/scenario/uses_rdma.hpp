// Whether a run goes over RDMA, from what its test and transport declare:
// the scenario needs it to check rails, a side to describe its data path.
#pragma once
#include "cmdbench/host/plugins/registry.hpp"

namespace cmdbench {

// A transport that needs an RDMA device (rsocket), or a test of a shipped
// RDMA plugin (verbs, rdmacm), which use no transport of their own.
bool run_uses_rdma(const Registry &registry, const cmdbench_test *test,
                   const cmdbench_transport *transport);

} // namespace cmdbench

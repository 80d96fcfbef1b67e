// Where each side of a run runs: the `cpus` and `numa` run keys
// (docs/scenarios.md), checked against this machine, applied by the host
// before a plugin's hooks run, and what the host saw of it afterwards
// (runs[].path.*.affinity, docs/results.md).
#pragma once
#include "cmdbench/base/expected.hpp"
#include "cmdbench/report/path_context.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>

namespace cmdbench {

// What one side was asked to use.
struct SidePlacement {
    std::set<unsigned> cpus; // empty: any
    enum class Numa { Any, Device, Node } numa = Numa::Any;
    unsigned node = 0; // with Numa::Node
    // Where the keys were written ("file:line:column"), for errors.
    std::string cpus_at, numa_at;

    bool empty() const { return cpus.empty() && numa == Numa::Any; }
    std::string cpus_text() const;                 // "0-1", "" = any
    std::string numa_text() const;                 // "device", "1", "" = any
    bool operator==(const SidePlacement &o) const; // what is asked, not where
};

struct RunPlacement {
    SidePlacement client, server;
    bool empty() const { return client.empty() && server.empty(); }
};

// On the control channel (RunRequest.placement): "cpus=0-1;numa=device".
std::string placement_wire(const SidePlacement &p);
Expected<SidePlacement> placement_from_wire(const std::string &text);

// What this machine has.
struct Topology {
    std::set<unsigned> online;  // /sys/devices/system/cpu/online
    std::set<unsigned> allowed; // CPUs our cgroup's cpuset allows (else all online)
    std::map<unsigned, std::set<unsigned>> nodes; // online NUMA node -> its CPUs
};
Topology local_topology();

// Fine when every CPU and node `p` names exists in `t`; else the first that
// does not, as a message ("'cpus' names CPU 7, which this machine does not
// have (CPUs: 0-1)", `machine` naming the machine).
Status check_placement(const SidePlacement &p, const Topology &t,
                       const std::string &machine = "this machine");

// The CPUs a side's threads are pinned to: `cpus`, else the CPUs of the
// node `numa` resolves to (`node`, -1 = none), else none (empty).
std::set<unsigned> placement_cpus(const SidePlacement &p, int node, const Topology &t);

// Applies a placement to this process for the length of a run and undoes it
// after: the CPUs to every thread of the process (threads started later
// inherit them), the memory policy (bind to the node) to the calling
// thread, from which the run's threads are started.
class PlacementScope {
  public:
    PlacementScope() = default;
    PlacementScope(const PlacementScope &) = delete;
    PlacementScope &operator=(const PlacementScope &) = delete;
    ~PlacementScope();

    // `node`: the node `numa` resolved to (-1: none). Fine, or why the
    // placement could not be applied (what was applied is undone).
    Status apply(const SidePlacement &p, int node);

  private:
    void restore();
    std::map<int, std::set<unsigned>> saved_cpus_; // thread id -> its mask before
    std::set<unsigned> caller_cpus_;
    bool cpus_set_ = false, memory_set_ = false;
    int saved_mode_ = 0;
    unsigned long saved_nodes_[16] = {};
};

// In a child just forked (before exec; async-signal-safe): undoes the
// placement a PlacementScope of the parent has applied, so a process the
// host starts during a run (the local server) does not inherit the client
// side's CPUs and memory policy.
void unplace_child();

// The NUMA node of the run's device for `numa = "device"`: the first RDMA
// device's node, else the interface's. Returns the node, or the reason the
// system does not say ("rxe0 on dummy0: the system gives no NUMA node").
Expected<int> device_numa_node(const SidePath &path);

// What the calling thread sees of its placement now: its CPU mask, memory
// policy and nodes, and the node of a page it allocates and touches.
void note_thread_placement(SideAffinity &into);

// The SideAffinity of a side: what it was asked, the node `numa` resolved
// to, and what was seen (filled in by the run, see host_services.hpp).
SideAffinity asked_affinity(const SidePlacement &p, int node);

} // namespace cmdbench

// One role of one run, start to finish: the per-run context (cmdbench_ctx)
// built from the run's parameters, the transport's probe, the test run under
// the watchdog (test_executor.hpp) with crash blame and CPU time, and the
// rows it left. The client of `cmdbench run`, `cmdbench serve`, the local
// meeting-node question and `cmdbench rstream` all run a role through this,
// so they cannot drift apart in how a run is set up.
#pragma once
#include "cmdbench/host/plugins/host_services.hpp"
#include "cmdbench/host/plugins/registry.hpp"
#include "cmdbench/host/run/test_executor.hpp"
#include "cmdbench/host/scenario/placement.hpp"
#include "cmdbench/report/result.hpp"

#include <atomic>
#include <cmdbench/plugin.h>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cmdbench {

// What a role needs before it starts.
struct RoleSetup {
    const cmdbench_test *test = nullptr;           // null: only the transport is asked
    const cmdbench_transport *transport = nullptr; // null: the test needs none
    RunInputs inputs; // what the run's context starts with (host_services.hpp)
    // For crash reports ("plugin 'x' ... run 'y'"); without a registry a
    // crash blames nobody in particular.
    const Registry *registry = nullptr;
    std::string run_label;
};

class RoleRun {
  public:
    explicit RoleRun(RoleSetup setup);

    // Asks the transport whether it can run here: nullopt when it can (or
    // there is no transport), else the skipped or failed outcome.
    std::optional<Execution> probe();

    // Places this side (`cpus`, `numa`; `node`: the node `numa` resolved to,
    // -1 for none) until the role ends; call it before probe(), so every
    // hook of the plugin runs placed. Fine, or why it could not.
    Status place(const SidePlacement &p, int node);

    // What this side was asked and where it ran (after run()).
    SideAffinity affinity() const;

    // The run's deadline, timeout_s from now.
    void start_clock(double timeout_s);

    // Runs the test in `role` against `peer_host`, with barrier and exchange
    // going through `peer` (null: none). The peer is only used during the
    // call. An abandoned test keeps the context alive (see test_executor.hpp).
    // A test that succeeds but reported a metric meaning plugin.h does not
    // define fails, naming its plugin, the test and the metric.
    Execution run(uint32_t role, const std::string &peer_host, PeerLink *peer);

    // CPU time this process used during run().
    const CpuTime &cpu() const { return cpu_; }

    // The rows the test has reported so far.
    std::vector<Row> rows() const;
    // The settings the test recorded (run_setting), in order.
    std::vector<std::pair<std::string, std::string>> settings() const;

    cmdbench_ctx &ctx() { return *ctx_; }

  private:
    void fail_on_invalid_meaning(Execution &ex) const;

    RoleSetup setup_;
    std::shared_ptr<cmdbench_ctx> ctx_;
    SideAffinity asked_;
    std::unique_ptr<PlacementScope> placement_;
    CpuTime cpu_;
};

} // namespace cmdbench

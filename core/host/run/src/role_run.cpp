#include "cmdbench/host/run/role_run.hpp"

#include "cmdbench/host/machine/cpu_usage.hpp"
#include "cmdbench/host/run/crash_context.hpp"

#include <optional>
#include <utility>

namespace cmdbench {

RoleRun::RoleRun(RoleSetup setup)
    : setup_(std::move(setup)), ctx_(make_run_ctx(std::move(setup_.inputs))) {}

std::optional<Execution> RoleRun::probe() {
    if (!setup_.transport) return std::nullopt;
    std::optional<crash_report::Activity> probing;
    if (setup_.registry) {
        Blame b = blame(*setup_.registry, setup_.transport, "probe", setup_.run_label);
        probing.emplace(b.who, b.where);
    }
    return probe_transport(setup_.transport, ctx_);
}

Status RoleRun::place(const SidePlacement &p, int node) {
    asked_ = asked_affinity(p, node);
    if (p.empty()) return {};
    placement_ = std::make_unique<PlacementScope>();
    return placement_->apply(p, node);
}

SideAffinity RoleRun::affinity() const {
    SideAffinity a = asked_;
    std::lock_guard<std::mutex> lock(ctx_->mu);
    a.cpus_allowed = ctx_->seen.cpus_allowed;
    a.memory_policy = ctx_->seen.memory_policy;
    a.memory_nodes = ctx_->seen.memory_nodes;
    a.memory_node_seen = ctx_->seen.memory_node_seen;
    a.cpus_seen = cpus_seen_text(*ctx_);
    return a;
}

void RoleRun::start_clock(double timeout_s) {
    ctx_->deadline_ns = monotonic_ns() + uint64_t(timeout_s * 1e9);
}

Execution RoleRun::run(uint32_t role, const std::string &peer_host, PeerLink *peer) {
    ctx_->peer = peer;
    const CpuTime cpu_start = process_cpu_time();
    Execution ex;
    {
        std::optional<crash_report::Activity> running;
        if (setup_.registry) {
            Blame b = blame(*setup_.registry, setup_.test, "run", setup_.run_label);
            running.emplace(b.who, b.where);
        }
        ex = execute_test(setup_.test, setup_.transport, ctx_, role, peer_host);
    }
    fail_on_invalid_meaning(ex);
    cpu_ = cpu_time_since(cpu_start);
    ctx_->peer = nullptr;
    return ex;
}

// A meaning plugin.h does not define would leave its metric uncompared
// without a word; the plugin cannot be asked at load time (meanings are
// passed with each value), so the run that reports one fails, naming it.
// A run that failed already keeps its own reason.
void RoleRun::fail_on_invalid_meaning(Execution &ex) const {
    if (ex.abandoned || ex.status != RunStatus::Ok) return;
    std::string invalid;
    {
        std::lock_guard<std::mutex> lock(ctx_->mu);
        invalid = ctx_->invalid_meaning;
    }
    if (invalid.empty()) return;
    std::string who = "test '" + std::string(setup_.test->name) + "': ";
    if (setup_.registry) {
        const std::string plugin = setup_.registry->plugin_name_of(setup_.test);
        if (!plugin.empty())
            who = "plugin '" + plugin + "' (" + setup_.registry->file_of(setup_.test) + "), " + who;
    }
    ex.status = RunStatus::Failed;
    ex.error = who + invalid;
}

std::vector<Row> RoleRun::rows() const {
    std::lock_guard<std::mutex> lock(ctx_->mu);
    return ctx_->rows;
}

std::vector<std::pair<std::string, std::string>> RoleRun::settings() const {
    std::lock_guard<std::mutex> lock(ctx_->mu);
    return ctx_->settings;
}

} // namespace cmdbench

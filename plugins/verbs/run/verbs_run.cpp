// Host glue of the verbs tests (see verbs_run.hpp).
#include "run/verbs_run.hpp"

#include "run/run_settings.hpp"

#include <cmdbench/plugin-support/peer_protocol.hpp>
#include <cmdbench/plugin-support/run_settings.hpp>
#include <cmdbench/rdma-util/rdma_device.hpp>
#include <cmdbench/rdma-util/rdma_device_address.hpp>

namespace cmdbench::verbs {

void Stopper::check(const char *what) const {
    if (ctx_ && std::this_thread::get_id() == owner_ && host_.cancelled(ctx_)) aborted_ = true;
    if (aborted_) throw RunError(CMDBENCH_ERR_CANCELLED, std::string(what) + ": stopped");
    if (host_.now_ns() >= deadline_)
        throw RunError(CMDBENCH_ERR_TIMEOUT, std::string(what) + ": timed out");
}

int64_t Stopper::remaining_ms() const {
    const uint64_t now = host_.now_ns();
    return now >= deadline_ ? 0 : static_cast<int64_t>((deadline_ - now) / 1000000);
}

namespace {

uint64_t deadline_of(const cmdbench_run_env &env) {
    const int64_t ms = env.host->remaining_ms(env.ctx);
    return env.host->now_ns() + static_cast<uint64_t>(ms > 0 ? ms : 0) * 1000000;
}

} // namespace

Run::Run(const cmdbench_run_env &env) : env_(env), stopper_(*env.host, env.ctx, deadline_of(env)) {}

void Run::check_stop(const char *what) {
    if (host().cancelled(ctx())) stopper_.abort();
    stopper_.check(what);
    if (host().remaining_ms(ctx()) <= 0)
        throw RunError(CMDBENCH_ERR_TIMEOUT, std::string(what) + ": timed out");
}

void Run::barrier(const std::string &name) const {
    cmdbench::support::Peer(env_, "verbs").barrier("verbs " + name);
}

std::vector<uint8_t> Run::exchange(const std::vector<uint8_t> &ours, const char *what) const {
    return cmdbench::support::Peer(env_, "verbs").exchange(ours, what);
}

void Run::setting(const std::string &key, const std::string &value) const {
    if (is_client()) cmdbench::support::record_setting(host(), ctx(), key, value);
}

void Run::setting(const std::string &key, int64_t value) const {
    setting(key, std::to_string(value));
}

void SizedSetting::record(const Run &run, const std::string &size_label, int64_t value) {
    if (value == last_) return;
    text_ += text_.empty() ? std::to_string(value)
                           : ", " + std::to_string(value) + " from " + size_label;
    last_ = value;
    run.setting(key_, text_);
}

void Run::log(int level, const std::string &line) const {
    host().log(ctx(), level, line.c_str());
}

void skip_no_device(const std::string &why) {
    // Soft-RoCE is the way out only where there is no device at all; with
    // one, something else is wrong (an address, rdma_cm): name the devices
    // and their addresses instead.
    const std::string listed = "RDMA devices here: ";
    if (cmdbench::rdma::rdma_device_problem().empty())
        throw RunError(CMDBENCH_ERR_SKIP,
                       "needs an RDMA device: " + why +
                           (why.find(listed) != std::string::npos
                                ? std::string()
                                : "; " + listed + cmdbench::rdma::rdma_devices_text()));
    throw RunError(CMDBENCH_ERR_SKIP,
                   "needs an RDMA device: " + why +
                       "; load Soft-RoCE (modprobe rdma_rxe; rdma link add rxe0 type rxe netdev "
                       "IFACE) or run inside the lab: tools/rdma-lab -- <command>");
}

} // namespace cmdbench::verbs

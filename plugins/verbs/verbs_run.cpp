// Host glue of the verbs tests (see verbs_run.hpp).
#include "verbs_run.hpp"

#include <cerrno>
#include <cstring>
#include <infiniband/verbs.h>
#include <new>

namespace verbs {

void fail(const std::string &message) {
    throw RunError(CMDBENCH_ERR, message);
}

void fail_errno(const std::string &call, int err) {
    throw RunError(CMDBENCH_ERR, call + ": " + std::strerror(err));
}

void Stopper::check(const char *what) const {
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

[[noreturn]] void missing(const char *name) {
    fail(std::string("verbs: parameter ") + name + " unavailable");
}

} // namespace

Run::Run(const cmdbench_run_env &env) : env_(env), stopper_(*env.host, deadline_of(env)) {}

bool Run::param_bool(const char *name) const {
    int v = 0;
    if (host().param_bool(ctx(), name, &v) != CMDBENCH_OK) missing(name);
    return v != 0;
}

int64_t Run::param_int(const char *name) const {
    int64_t v = 0;
    if (host().param_int(ctx(), name, &v) != CMDBENCH_OK) missing(name);
    return v;
}

double Run::param_double(const char *name) const {
    double v = 0;
    if (host().param_double(ctx(), name, &v) != CMDBENCH_OK) missing(name);
    return v;
}

std::string Run::param_string(const char *name) const {
    const char *v = nullptr;
    if (host().param_string(ctx(), name, &v) != CMDBENCH_OK) missing(name);
    return v ? v : "";
}

std::vector<int64_t> Run::param_int_list(const char *name) const {
    const int64_t *values = nullptr;
    size_t count = 0;
    if (host().param_int_list(ctx(), name, &values, &count) != CMDBENCH_OK) missing(name);
    return std::vector<int64_t>(values, values + count);
}

void Run::check_stop(const char *what) {
    if (host().cancelled(ctx())) stopper_.abort();
    stopper_.check(what);
    if (host().remaining_ms(ctx()) <= 0)
        throw RunError(CMDBENCH_ERR_TIMEOUT, std::string(what) + ": timed out");
}

void Run::barrier(const std::string &name) const {
    const int status = host().barrier(ctx(), ("verbs " + name).c_str());
    if (status != CMDBENCH_OK)
        throw RunError(status, "verbs: barrier \"" + name + "\" with the " +
                                   (is_client() ? "server" : "client") + " failed");
}

std::vector<uint8_t> Run::exchange(const std::vector<uint8_t> &ours, const char *what) const {
    std::vector<uint8_t> theirs(65536);
    uint32_t got = 0;
    const int status = host().exchange(ctx(), ours.data(), static_cast<uint32_t>(ours.size()),
                                       theirs.data(), static_cast<uint32_t>(theirs.size()), &got);
    if (status != CMDBENCH_OK)
        throw RunError(status, std::string("verbs: ") + what + ": exchange with the peer failed");
    theirs.resize(got);
    return theirs;
}

void Run::log(int level, const std::string &line) const {
    host().log(ctx(), level, line.c_str());
}

int run_guarded(const cmdbench_run_env *env, void (*body)(Run &)) {
    if (!env || !env->host) return CMDBENCH_ERR;
    try {
        Run run(*env);
        body(run);
        return CMDBENCH_OK;
    } catch (const RunError &e) {
        env->host->set_error(env->ctx, e.what());
        return e.status;
    } catch (const std::bad_alloc &) {
        env->host->set_error(env->ctx, "out of memory");
    } catch (const std::exception &e) {
        env->host->set_error(env->ctx, e.what());
    } catch (...) {
        env->host->set_error(env->ctx, "unknown failure");
    }
    return CMDBENCH_ERR;
}

std::string rdma_device_problem() {
    int n = 0;
    ibv_device **list = ibv_get_device_list(&n);
    if (!list) return std::string("ibv_get_device_list: ") + std::strerror(errno);
    ibv_free_device_list(list);
    if (n == 0) return "ibv_get_device_list found none";
    return std::string();
}

void skip_no_device(const std::string &why) {
    throw RunError(CMDBENCH_ERR_SKIP,
                   "needs an RDMA device: " + why +
                       "; load Soft-RoCE (modprobe rdma_rxe; rdma link add rxe0 type rxe netdev "
                       "IFACE) or run inside the lab: tools/rdma-lab -- <command>");
}

} // namespace verbs

// The run guard (see run_guard.hpp).
#include "cmdbench/plugin-support/run_guard.hpp"

#include "cmdbench/plugin-support/run_error.hpp"

#include <exception>
#include <new>
#include <string>

namespace cmdbench::support {

void check_stop(const cmdbench_run_env &env, const char *what) {
    if (env.host->remaining_ms(env.ctx) <= 0)
        throw RunError(CMDBENCH_ERR_TIMEOUT, std::string(what) + ": timed out");
    if (env.host->cancelled(env.ctx))
        throw RunError(CMDBENCH_ERR_CANCELLED, std::string(what) + ": cancelled");
}

int run_guarded(const cmdbench_run_env *env, void (*body)(const cmdbench_run_env &)) {
    if (!env || !env->host) return CMDBENCH_ERR;
    const cmdbench_host &host = *env->host;
    try {
        body(*env);
        return CMDBENCH_OK;
    } catch (const RunError &e) {
        if (!e.reported)
            host.set_error(env->ctx, e.what());
        else if (*e.what())
            host.log(env->ctx, CMDBENCH_LOG_ERROR, e.what());
        return e.status;
    } catch (const std::bad_alloc &) {
        host.set_error(env->ctx, "out of memory");
    } catch (const std::exception &e) {
        host.set_error(env->ctx, e.what());
    } catch (...) {
        host.set_error(env->ctx, "unknown failure");
    }
    return CMDBENCH_ERR;
}

} // namespace cmdbench::support

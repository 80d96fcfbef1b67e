// The ABI edge of a test's run: nothing C++ leaves the plugin. A RunError
// becomes its status and set_error; any other exception CMDBENCH_ERR.
#ifndef CMDBENCH_PLUGIN_SUPPORT_RUN_GUARD_HPP
#define CMDBENCH_PLUGIN_SUPPORT_RUN_GUARD_HPP

#include <cmdbench/plugin.h>

namespace cmdbench::support {

// Runs body(*env) and returns CMDBENCH_OK, or the status of what it threw.
int run_guarded(const cmdbench_run_env *env, void (*body)(const cmdbench_run_env &));

// Throws RunError (CMDBENCH_ERR_TIMEOUT / CMDBENCH_ERR_CANCELLED, "WHAT: timed
// out" / "WHAT: cancelled") once the host says the run must stop.
void check_stop(const cmdbench_run_env &env, const char *what);

// A test's `run` entry for a body that works on a Role built from the run's
// env (a session object whose constructor may throw RunError):
//   t.run = guarded_run<Session, run_pingpong>;
template <class Role, void (*Body)(Role &)> int guarded_run(const cmdbench_run_env *env) {
    return run_guarded(env, [](const cmdbench_run_env &e) {
        Role role(e);
        Body(role);
    });
}

} // namespace cmdbench::support

#endif

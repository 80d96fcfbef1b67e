// Typed access to a run's parameters. The host already checked each value
// against the test's table (type and range); what is left for the plugin is
// reading it with the right type, checks across keys, and a clear error when
// a key is missing (a test whose table lacks it). Header-only (see
// run_error.hpp).
#ifndef CMDBENCH_PLUGIN_SUPPORT_PARAM_READER_HPP
#define CMDBENCH_PLUGIN_SUPPORT_PARAM_READER_HPP

#include "cmdbench/plugin-support/run_error.hpp"

#include <cmdbench/plugin.h>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cmdbench::support {

class ParamReader {
  public:
    // `owner` prefixes every error ("verbs-bw: ..."); empty for none.
    ParamReader(const cmdbench_run_env &env, std::string owner)
        : host_(env.host), ctx_(env.ctx), owner_(std::move(owner)) {}
    // A transport's hooks get the host and context without a run env.
    ParamReader(const cmdbench_host *host, cmdbench_ctx *ctx, std::string owner)
        : host_(host), ctx_(ctx), owner_(std::move(owner)) {}

    // Each throws RunError "<owner>: parameter NAME: not available as a TYPE".
    bool boolean(const char *name) const;
    int64_t integer(const char *name) const;
    // integer() for keys whose table range fits an int.
    int small_int(const char *name) const { return static_cast<int>(integer(name)); }
    double number(const char *name) const;
    std::string text(const char *name) const;
    // May be empty: a test that needs an entry checks (and names) it.
    std::vector<int64_t> int_list(const char *name) const;

    // A value outside what another key allows: throws RunError
    // "<owner>: KEY = VALUE must be in RANGE" plus " (NOTE)" when given.
    [[noreturn]] void out_of_range(const char *key, int64_t value, const std::string &range,
                                   const std::string &note = std::string()) const;
    // Throws RunError "<owner>: MESSAGE".
    [[noreturn]] void bad(const std::string &message) const;

  private:
    [[noreturn]] void unavailable(const char *name, const char *as) const;

    const cmdbench_host *host_;
    cmdbench_ctx *ctx_;
    std::string owner_;
};

inline void ParamReader::bad(const std::string &message) const {
    fail(owner_.empty() ? message : owner_ + ": " + message);
}

inline void ParamReader::unavailable(const char *name, const char *as) const {
    bad(std::string("parameter ") + name + ": not available as " + as);
}

inline void ParamReader::out_of_range(const char *key, int64_t value, const std::string &range,
                                      const std::string &note) const {
    bad(std::string(key) + " = " + std::to_string(value) + " must be in " + range +
        (note.empty() ? std::string() : " (" + note + ")"));
}

inline bool ParamReader::boolean(const char *name) const {
    int value = 0;
    if (host_->param_bool(ctx_, name, &value) != CMDBENCH_OK) unavailable(name, "a boolean");
    return value != 0;
}

inline int64_t ParamReader::integer(const char *name) const {
    int64_t value = 0;
    if (host_->param_int(ctx_, name, &value) != CMDBENCH_OK) unavailable(name, "an integer");
    return value;
}

inline double ParamReader::number(const char *name) const {
    double value = 0;
    if (host_->param_double(ctx_, name, &value) != CMDBENCH_OK) unavailable(name, "a number");
    return value;
}

inline std::string ParamReader::text(const char *name) const {
    const char *value = nullptr;
    if (host_->param_string(ctx_, name, &value) != CMDBENCH_OK || !value)
        unavailable(name, "a string");
    return value;
}

inline std::vector<int64_t> ParamReader::int_list(const char *name) const {
    const int64_t *values = nullptr;
    size_t count = 0;
    if (host_->param_int_list(ctx_, name, &values, &count) != CMDBENCH_OK)
        unavailable(name, "an integer list");
    return std::vector<int64_t>(values, values + count);
}

} // namespace cmdbench::support

#endif

// Typed parameter reading (see param_reader.hpp).
#include "cmdbench/plugin-support/param_reader.hpp"

#include "cmdbench/plugin-support/run_error.hpp"

#include <utility>

namespace cmdbench::support {

ParamReader::ParamReader(const cmdbench_run_env &env, std::string owner)
    : host_(env.host), ctx_(env.ctx), owner_(std::move(owner)) {}

ParamReader::ParamReader(const cmdbench_host *host, cmdbench_ctx *ctx, std::string owner)
    : host_(host), ctx_(ctx), owner_(std::move(owner)) {}

void ParamReader::bad(const std::string &message) const {
    fail(owner_.empty() ? message : owner_ + ": " + message);
}

void ParamReader::unavailable(const char *name, const char *as) const {
    bad(std::string("parameter ") + name + ": not available as " + as);
}

void ParamReader::out_of_range(const char *key, int64_t value, const std::string &range,
                               const std::string &note) const {
    bad(std::string(key) + " = " + std::to_string(value) + " must be in " + range +
        (note.empty() ? std::string() : " (" + note + ")"));
}

bool ParamReader::boolean(const char *name) const {
    int value = 0;
    if (host_->param_bool(ctx_, name, &value) != CMDBENCH_OK) unavailable(name, "a boolean");
    return value != 0;
}

int64_t ParamReader::integer(const char *name) const {
    int64_t value = 0;
    if (host_->param_int(ctx_, name, &value) != CMDBENCH_OK) unavailable(name, "an integer");
    return value;
}

double ParamReader::number(const char *name) const {
    double value = 0;
    if (host_->param_double(ctx_, name, &value) != CMDBENCH_OK) unavailable(name, "a number");
    return value;
}

std::string ParamReader::text(const char *name) const {
    const char *value = nullptr;
    if (host_->param_string(ctx_, name, &value) != CMDBENCH_OK || !value)
        unavailable(name, "a string");
    return value;
}

std::vector<int64_t> ParamReader::int_list(const char *name) const {
    const int64_t *values = nullptr;
    size_t count = 0;
    if (host_->param_int_list(ctx_, name, &values, &count) != CMDBENCH_OK)
        unavailable(name, "an integer list");
    return std::vector<int64_t>(values, values + count);
}

} // namespace cmdbench::support

#include "host_run_setting.hpp"

#include <cstring>

namespace cmdbench {
namespace {

constexpr size_t kMaxKey = 64;
constexpr size_t kMaxValue = 256;
constexpr size_t kMaxSettings = 64;

// Keys are printed bare in the header and become JSON keys: keep them plain.
bool plain_key(const char *key) {
    const size_t n = std::strlen(key);
    if (n == 0 || n > kMaxKey) return false;
    for (size_t i = 0; i < n; ++i) {
        const char c = key[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    }
    return true;
}

int refuse(cmdbench_ctx *ctx, const std::string &why) {
    std::lock_guard<std::mutex> lock(ctx->mu);
    ctx->error = "run_setting: " + why;
    return CMDBENCH_ERR;
}

} // namespace

int run_setting(cmdbench_ctx *ctx, const char *key, const char *value) {
    if (!ctx) return CMDBENCH_ERR;
    if (!key || !plain_key(key))
        return refuse(ctx, "key '" + std::string(key ? key : "") + "' is not 1-" +
                               std::to_string(kMaxKey) + " characters of [a-z0-9_]");
    if (!value) return refuse(ctx, "no value for '" + std::string(key) + "'");
    if (std::strlen(value) > kMaxValue)
        return refuse(ctx, "the value of '" + std::string(key) + "' is longer than " +
                               std::to_string(kMaxValue) + " bytes");
    std::lock_guard<std::mutex> lock(ctx->mu);
    for (auto &[k, v] : ctx->settings)
        if (k == key) {
            v = value;
            return CMDBENCH_OK;
        }
    if (ctx->settings.size() >= kMaxSettings) {
        ctx->error = "run_setting: more than " + std::to_string(kMaxSettings) + " settings";
        return CMDBENCH_ERR;
    }
    ctx->settings.emplace_back(key, value);
    return CMDBENCH_OK;
}

} // namespace cmdbench

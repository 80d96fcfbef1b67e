#include "cmdbench/host/serve/serve_limits.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <set>
#include <stdexcept>
#include <sys/resource.h>
#include <unistd.h>

// Sanitizers reserve terabytes of address space for their shadow memory:
// RLIMIT_AS would stop them at start.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CMDBENCH_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CMDBENCH_UNDER_SANITIZER 1
#endif
#endif
#ifdef CMDBENCH_UNDER_SANITIZER
constexpr bool kUnderSanitizer = true;
#else
constexpr bool kUnderSanitizer = false;
#endif

namespace cmdbench {
namespace {

constexpr int64_t kMiB = int64_t(1) << 20;
constexpr int64_t kGiB = int64_t(1) << 30;
constexpr int64_t kFirstUnprivilegedPort = 1024;

bool numeric(uint32_t type) {
    return type == CMDBENCH_PARAM_INT || type == CMDBENCH_PARAM_INT_LIST ||
           type == CMDBENCH_PARAM_DOUBLE;
}

// Every numeric parameter name the loaded plugins declare: the keys a
// --limit may name.
std::set<std::string> limitable_keys(const Registry &registry) {
    std::set<std::string> keys = {"timeout"};
    auto add = [&](const cmdbench_param *params, uint32_t count) {
        for (uint32_t i = 0; i < count; ++i)
            if (numeric(params[i].type)) keys.insert(params[i].name);
    };
    for (const auto &p : registry.plugins()) {
        for (uint32_t i = 0; i < p.desc->test_count; ++i)
            add(p.desc->tests[i]->params, p.desc->tests[i]->param_count);
        for (uint32_t i = 0; i < p.desc->transport_count; ++i)
            add(p.desc->transports[i]->params, p.desc->transports[i]->param_count);
    }
    return keys;
}

std::string over_limit(const std::string &key, const std::string &value, int64_t limit) {
    return "parameter '" + key + "' = " + value + " is over this server's limit of " +
           std::to_string(limit) + " (the server's operator can raise it: cmdbench serve --limit " +
           key + "=N)";
}

// The largest element a value holds, as text, when it is over `limit`.
std::optional<std::string> value_over(const ParamValue &v, int64_t limit) {
    if (const auto *i = std::get_if<int64_t>(&v)) {
        if (*i > limit) return std::to_string(*i);
    } else if (const auto *d = std::get_if<double>(&v)) {
        if (!(*d <= double(limit))) return to_text(v);
    } else if (const auto *list = std::get_if<std::vector<int64_t>>(&v)) {
        for (int64_t e : *list)
            if (e > limit) return std::to_string(e);
    }
    return std::nullopt;
}

// Room kept above a run's thread stack: the session table, a session's
// connection and a small run's buffers (a pingpong of 64-byte messages
// measured 0.3 MiB above the stack), with margin.
constexpr int64_t kMemoryToSpare = 8 * kMiB;

// The address space this process maps now (VmSize), from /proc/self/statm.
int64_t mapped_bytes() {
    std::ifstream statm("/proc/self/statm");
    int64_t pages = 0;
    if (!(statm >> pages)) return 0;
    return pages * int64_t(sysconf(_SC_PAGESIZE));
}

// The stack glibc gives a new thread: RLIMIT_STACK's soft limit, or 2 MiB
// when that is unlimited.
int64_t thread_stack_bytes() {
    rlimit l{};
    if (getrlimit(RLIMIT_STACK, &l) != 0 || l.rlim_cur == RLIM_INFINITY) return 2 * kMiB;
    return int64_t(l.rlim_cur);
}

int64_t round_up_mib(int64_t bytes) {
    return (bytes + kMiB - 1) / kMiB * kMiB;
}

// "46M", rounded up to whole MiB, as --max-memory takes it.
std::string mib_text(int64_t bytes) {
    return std::to_string(round_up_mib(bytes) / kMiB) + "M";
}

} // namespace

ServeLimits ServeLimits::defaults() {
    ServeLimits l;
    l.max = {
        {"sizes", 64 * kMiB},       // message buffers, allocated per size
        {"buffer_size", 64 * kMiB}, // socket buffers
        {"bytes", 64 * kGiB},       // data streamed per size
        {"count", 10000},           // connections per run
        {"threads", 64},
        {"timeout", 3600}, // seconds one run may hold the server
    };
    return l;
}

Status ServeLimits::check(const std::map<std::string, ParamValue> &params, double timeout_s) const {
    if (!enabled) return {};
    for (const auto &[key, value] : params) {
        if (key == "port" && !allow_privileged_ports) {
            const auto *port = std::get_if<int64_t>(&value);
            if (port && *port != 0 && *port < kFirstUnprivilegedPort)
                return unexpected(
                    "parameter 'port' = " + std::to_string(*port) +
                    " is a privileged port; this server allows only 0 (any) or 1024-65535 "
                    "(the server's operator can allow it: cmdbench serve "
                    "--allow-privileged-ports)");
        }
        const auto limit = max.find(key);
        if (limit == max.end()) continue;
        if (auto over = value_over(value, limit->second))
            return unexpected(over_limit(key, *over, limit->second));
    }
    const auto limit = max.find("timeout");
    if (limit != max.end() && !(timeout_s <= double(limit->second)))
        return unexpected(over_limit("timeout", to_text(ParamValue{timeout_s}), limit->second));
    return {};
}

int64_t parse_byte_count(const std::string &text, const std::string &option) {
    auto bad = [&]() {
        return std::invalid_argument(option +
                                     " expects a non-negative whole number, optionally "
                                     "with K, M, G or T (powers of 1024), got '" +
                                     text + "'");
    };
    size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9')
        ++digits;
    if (digits == 0 || digits > 18) throw bad();
    int64_t value = std::stoll(text.substr(0, digits));
    const std::string suffix = text.substr(digits);
    int shift = 0;
    if (suffix == "K" || suffix == "k")
        shift = 10;
    else if (suffix == "M")
        shift = 20;
    else if (suffix == "G")
        shift = 30;
    else if (suffix == "T")
        shift = 40;
    else if (!suffix.empty())
        throw bad();
    if (shift && value > (INT64_MAX >> shift)) throw bad();
    return value << shift;
}

ServeLimits limits_from_options(const std::vector<std::string> &specs, bool allow_privileged_ports,
                                bool no_limits, const Registry &registry) {
    ServeLimits limits = ServeLimits::defaults();
    limits.enabled = !no_limits;
    limits.allow_privileged_ports = allow_privileged_ports;
    if (specs.empty()) return limits;
    const std::set<std::string> keys = limitable_keys(registry);
    for (const auto &spec : specs) {
        const auto eq = spec.find('=');
        if (eq == std::string::npos || eq == 0)
            throw std::invalid_argument("--limit expects KEY=MAX (e.g. --limit sizes=256M), got '" +
                                        spec + "'");
        const std::string key = spec.substr(0, eq), value = spec.substr(eq + 1);
        if (!keys.count(key)) {
            std::string known;
            for (const auto &k : keys)
                known += (known.empty() ? "" : ", ") + k;
            throw std::invalid_argument("--limit " + key +
                                        ": no loaded test or transport has a numeric parameter "
                                        "of that name (known: " +
                                        known + ")");
        }
        if (value == "none")
            limits.max.erase(key);
        else
            limits.max[key] = parse_byte_count(value, "--limit " + key);
    }
    return limits;
}

MemoryFloor memory_floor() {
    MemoryFloor f;
    f.mapped = mapped_bytes();
    f.stack = thread_stack_bytes();
    f.minimum = round_up_mib(f.mapped + f.stack + kMemoryToSpare);
    return f;
}

std::string apply_memory_limit(int64_t bytes, const std::string &as_given) {
    if (kUnderSanitizer)
        return "--max-memory is ignored in a sanitizer build (its shadow memory needs far more "
               "address space)";
    const MemoryFloor floor = memory_floor();
    if (bytes < floor.minimum)
        throw std::invalid_argument("--max-memory " + as_given + " is too small: allowed is " +
                                    mib_text(floor.minimum) + " or more here (this server maps " +
                                    mib_text(floor.mapped) + " already, a run's " +
                                    "thread needs a stack of " + mib_text(floor.stack) + ", and " +
                                    mib_text(kMemoryToSpare) + " is kept to spare)");
    rlimit limit{rlim_t(bytes), rlim_t(bytes)};
    if (setrlimit(RLIMIT_AS, &limit) != 0)
        throw std::invalid_argument(std::string("--max-memory: cannot set the limit: ") +
                                    std::strerror(errno));
    return "";
}

} // namespace cmdbench

// The lab's faults for plugin verbs (see plugins/verbs/faults.hpp), each set
// by an environment variable that both sides of a run inherit:
//   CMDBENCH_VERBS_TEST_CORRUPT_TARGET=V   QP 0's target becomes V (a number)
//   CMDBENCH_VERBS_TEST_UD_DROP_ANSWER=N   QP 0's message N goes unanswered
//   CMDBENCH_VERBS_TEST_LATE_START_MS=MS   the server answers MS ms late
#include "faults.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace cmdbench::verbs::faults {
namespace {

const char *setting(const char *name) {
    const char *value = std::getenv(name);
    return value && *value ? value : nullptr;
}

} // namespace

std::optional<uint64_t> corrupt_target(const Run &run) {
    const char *value = setting("CMDBENCH_VERBS_TEST_CORRUPT_TARGET");
    if (!value) return std::nullopt;
    const uint64_t v = std::strtoull(value, nullptr, 0);
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(v));
    run.log(CMDBENCH_LOG_WARN,
            std::string("verbs: CMDBENCH_VERBS_TEST_CORRUPT_TARGET: QP 0's target set to ") + text);
    return v;
}

std::optional<uint64_t> unanswered_message(const Run &run) {
    const char *value = setting("CMDBENCH_VERBS_TEST_UD_DROP_ANSWER");
    if (!value) return std::nullopt;
    const uint64_t n = std::strtoull(value, nullptr, 10);
    run.log(CMDBENCH_LOG_WARN,
            "verbs-lat: CMDBENCH_VERBS_TEST_UD_DROP_ANSWER: QP 0 leaves message " +
                std::to_string(n) + " unanswered");
    return n;
}

void start_late(const Run &run) {
    const char *value = setting("CMDBENCH_VERBS_TEST_LATE_START_MS");
    if (!value) return;
    const long ms = std::strtol(value, nullptr, 10);
    if (ms <= 0) return;
    run.log(CMDBENCH_LOG_WARN, "verbs: CMDBENCH_VERBS_TEST_LATE_START_MS: starting " +
                                   std::to_string(ms) + " ms late");
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

} // namespace cmdbench::verbs::faults

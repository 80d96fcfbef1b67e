// Names of run outcomes, as the results and reports print them.
#include "cmdbench/report/result.hpp"

namespace cmdbench {

const char *to_string(RunStatus s) {
    switch (s) {
    case RunStatus::Ok:
        return "ok";
    case RunStatus::Failed:
        return "failed";
    case RunStatus::Skipped:
        return "skipped";
    case RunStatus::TimedOut:
        return "timeout";
    case RunStatus::Interrupted:
        return "interrupted";
    }
    return "unknown";
}

} // namespace cmdbench

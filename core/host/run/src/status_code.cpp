#include "cmdbench/host/run/status_code.hpp"

namespace cmdbench {

int32_t status_code(RunStatus s) {
    switch (s) {
    case RunStatus::Ok:
        return CMDBENCH_OK;
    case RunStatus::Skipped:
        return CMDBENCH_ERR_SKIP;
    case RunStatus::TimedOut:
        return CMDBENCH_ERR_TIMEOUT;
    case RunStatus::Interrupted:
        return CMDBENCH_ERR_CANCELLED;
    case RunStatus::Failed:
        break;
    }
    return CMDBENCH_ERR;
}

RunStatus status_from_code(int32_t code) {
    switch (code) {
    case CMDBENCH_OK:
        return RunStatus::Ok;
    case CMDBENCH_ERR_SKIP:
        return RunStatus::Skipped;
    case CMDBENCH_ERR_TIMEOUT:
        return RunStatus::TimedOut;
    case CMDBENCH_ERR_CANCELLED:
        return RunStatus::Interrupted;
    default:
        return RunStatus::Failed;
    }
}

} // namespace cmdbench

// join_job() for a build without PMIx (CMDBENCH_WITH_PMIX=OFF, or AUTO with
// no libpmix-dev): alone is fine, but a launcher's job cannot be joined, and
// saying so beats running N unrelated single-pair benchmarks.
#include "cmdbench/host/matrix/job.hpp"

namespace cmdbench {

std::unique_ptr<Job> join_job() {
    if (!launched_by_pmix()) return nullptr;
    throw JobError("this cmdbench was built without PMIx (install libpmix-dev and rebuild): "
                   "cannot join the launcher's job");
}

} // namespace cmdbench

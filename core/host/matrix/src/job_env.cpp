// launched_by_pmix(): the environment a PMIx launcher gives the processes it
// starts. Shared by the builds with and without PMIx, so both tell "no
// launcher" apart from "a launcher this build cannot talk to".
#include "cmdbench/host/matrix/job.hpp"

#include <cstdlib>
#include <cstring>

extern char **environ;

namespace cmdbench {

bool launched_by_pmix() {
    if (std::getenv("PMIX_NAMESPACE") || std::getenv("PMIX_RANK")) return true;
    // PMIX_SERVER_URI, PMIX_SERVER_URI2, ..._URI4, ..._URI41: one per
    // protocol version the server speaks.
    static const char kUri[] = "PMIX_SERVER_URI";
    for (char **e = environ; e && *e; ++e)
        if (std::strncmp(*e, kUri, sizeof kUri - 1) == 0) return true;
    return false;
}

} // namespace cmdbench

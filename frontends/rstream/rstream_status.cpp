// Exit status of a failed `cmdbench rstream` run (see rstream_status.hpp).
#include "rstream_status.hpp"

#include <poll.h>

namespace cmdbench::rstream_frontend {

int failure_status(const std::string &error) {
    static const std::string kMarker = "(poll revents: ";
    const size_t at = error.rfind(kMarker);
    if (at == std::string::npos) return 255;
    const std::string bits = error.substr(at + kMarker.size());
    int status = 0;
    if (bits.find("POLLERR") != std::string::npos) status |= POLLERR;
    if (bits.find("POLLHUP") != std::string::npos) status |= POLLHUP;
    return status ? status : 255;
}

} // namespace cmdbench::rstream_frontend

#include "cmdbench/control/unique_fd.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace cmdbench {

void UniqueFd::reset(int fd) {
    // No retry on EINTR: Linux has closed the descriptor either way.
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
}

int UniqueFd::close() {
    if (fd_ < 0) return 0;
    const int rc = ::close(release());
    return rc == 0 ? 0 : errno;
}

Pipe make_pipe(int flags) {
    int fds[2];
    if (pipe2(fds, flags) != 0) throw std::runtime_error(std::string("pipe: ") + strerror(errno));
    return Pipe{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

} // namespace cmdbench

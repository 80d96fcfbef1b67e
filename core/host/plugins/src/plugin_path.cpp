#include "plugin_path.hpp"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace cmdbench {
namespace {

std::string type_of(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

bool is_symlink(const std::string &path) {
    struct stat st {};
    return lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

std::string link_target(const std::string &path) {
    std::vector<char> buf(4096);
    const ssize_t n = readlink(path.c_str(), buf.data(), buf.size());
    return n > 0 ? std::string(buf.data(), size_t(n)) : std::string("?");
}

// Why stat failed, in words that say what the path is.
std::string unreachable(const std::string &path, int err) {
    if (err == ELOOP) return std::string("a symlink loop (") + std::strerror(err) + ")";
    if (err == ENOENT && is_symlink(path))
        return "a symlink to " + link_target(path) + ", which does not exist";
    if (err == ENOENT) return "no such plugin file or directory";
    return std::string("cannot be reached: ") + std::strerror(err);
}

} // namespace

PluginPath inspect_plugin_path(const std::string &path) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) return {PluginPathKind::absent, unreachable(path, errno)};
    if (S_ISDIR(st.st_mode)) return {PluginPathKind::directory, "a directory"};
    if (S_ISREG(st.st_mode)) return {PluginPathKind::file, {}};
    return {PluginPathKind::other, (is_symlink(path) ? "a symlink to " : "") + type_of(st.st_mode)};
}

} // namespace cmdbench

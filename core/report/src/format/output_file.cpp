#include "cmdbench/report/output_file.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <memory>
#include <poll.h>
#include <random>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace cmdbench {
namespace {

constexpr int kMaxLinks = 40;          // as the kernel's limit on symlink hops
constexpr int kReaderWaitMs = 5000;    // for a FIFO's reader to turn up
constexpr int kStalledWriteMs = 30000; // for a reader to take more of the text
constexpr int kTempNameAttempts = 100;

std::string dir_of(const std::string &path) {
    const size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string &path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// PATH with the symlinks at its last component followed, dangling ones too:
// the file to replace, so that a link at PATH stays a link. False (errno
// set) on a loop or an unreadable link.
bool follow_links(const std::string &path, std::string &target) {
    target = path;
    for (int hops = 0; hops <= kMaxLinks; ++hops) {
        struct stat st;
        if (lstat(target.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return true;
        std::string link(size_t(st.st_size) + 256, '\0');
        const ssize_t n = readlink(target.c_str(), link.data(), link.size());
        if (n < 0) return false;
        link.resize(size_t(n));
        target = link[0] == '/' ? link : dir_of(target) + "/" + link;
    }
    errno = ELOOP;
    return false;
}

// A new file next to TARGET, created with O_EXCL|O_NOFOLLOW: never an
// existing file or a link someone planted. The umask (and a default ACL)
// applies as to any new file. Returns the fd, or -1 with errno set.
int create_temp(const std::string &target, std::string &temp) {
    static std::mt19937_64 rng{std::random_device{}()};
    // The name is cut short so that the suffix keeps it within NAME_MAX.
    const std::string stem = dir_of(target) + "/." + base_of(target).substr(0, 200) + ".tmp-";
    for (int i = 0; i < kTempNameAttempts; ++i) {
        char suffix[24];
        std::snprintf(suffix, sizeof suffix, "%016llx", (unsigned long long)rng());
        temp = stem + suffix;
        const int fd =
            open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;
}

// Writes all of SIZE bytes at DATA to FD; waits (bounded) when the fd would
// block, as a FIFO with a slow reader does. Returns "" or why it stopped.
std::string write_all(int fd, const char *data, size_t size) {
    size_t done = 0;
    while (done < size) {
        const ssize_t n = write(fd, data + done, size - done);
        if (n > 0) {
            done += size_t(n);
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            pollfd p{fd, POLLOUT, 0};
            const int ready = poll(&p, 1, kStalledWriteMs);
            if (ready == 0)
                return "the reader took nothing for " + std::to_string(kStalledWriteMs / 1000) +
                       " s";
            if (ready < 0 && errno != EINTR) return std::strerror(errno);
        } else {
            return n == 0 ? "nothing was written" : std::strerror(errno);
        }
    }
    return "";
}

// An ostream's buffer that goes to a file descriptor a block at a time: a
// document is written as it is made, never held whole in memory (a large
// matrix's results are tens of megabytes). The first failure is kept, and
// everything after it is dropped.
class FdBuffer : public std::streambuf {
  public:
    explicit FdBuffer(int fd) : fd_(fd) { setp(block_, block_ + sizeof block_); }
    // Writes what is buffered; "" or the first failure.
    std::string flush_all() {
        drain();
        return why_;
    }

  protected:
    int_type overflow(int_type c) override {
        drain();
        if (!why_.empty()) return traits_type::eof();
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override { return drain() ? 0 : -1; }

  private:
    bool drain() {
        if (why_.empty() && pptr() > pbase())
            why_ = write_all(fd_, pbase(), size_t(pptr() - pbase()));
        setp(block_, block_ + sizeof block_);
        return why_.empty();
    }
    int fd_;
    std::string why_;
    char block_[1 << 16];
};

// Runs PRODUCE on a stream to FD; "" or why the writing failed.
std::string produce_into(int fd, const DocumentWriter &produce) {
    auto buffer = std::make_unique<FdBuffer>(fd);
    std::ostream out(buffer.get());
    try {
        produce(out);
    } catch (const std::exception &e) {
        return std::string("the document could not be made: ") + e.what();
    }
    return buffer->flush_all();
}

// Makes the rename durable; a failure here loses nothing already renamed.
void sync_dir(const std::string &dir) {
    const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    fsync(fd);
    close(fd);
}

std::string replace_file(const std::string &target, const DocumentWriter &produce) {
    struct stat old;
    const bool existed = stat(target.c_str(), &old) == 0;
    std::string temp;
    const int fd = create_temp(target, temp);
    if (fd < 0) return "cannot create a file in " + dir_of(target) + ": " + std::strerror(errno);
    std::string why;
    if (existed && fchmod(fd, old.st_mode & 0777) != 0) why = std::strerror(errno);
    if (why.empty()) why = produce_into(fd, produce);
    if (why.empty() && fsync(fd) != 0) why = std::strerror(errno);
    // close() reports errors some file systems only find at the end.
    if (close(fd) != 0 && why.empty()) why = std::strerror(errno);
    if (why.empty() && rename(temp.c_str(), target.c_str()) != 0) why = std::strerror(errno);
    if (!why.empty()) {
        unlink(temp.c_str());
        return why;
    }
    sync_dir(dir_of(target));
    return "";
}

// Opens a device or FIFO for writing, in place, without creating or
// truncating anything. O_NONBLOCK: a FIFO without a reader fails (ENXIO)
// instead of blocking, so wait for one a bounded time.
int open_in_place(const std::string &target, std::string &why) {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(kReaderWaitMs);
    for (;;) {
        const int fd =
            open(target.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0) return fd;
        if (errno != ENXIO) break;
        if (std::chrono::steady_clock::now() >= deadline) {
            why = "no process opened the FIFO for reading within " +
                  std::to_string(kReaderWaitMs / 1000) + " s";
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    why = std::strerror(errno);
    return -1;
}

std::string write_in_place(const std::string &target, const DocumentWriter &produce) {
    std::string why;
    const int fd = open_in_place(target, why);
    if (fd < 0) return why;
    why = produce_into(fd, produce);
    if (close(fd) != 0 && why.empty()) why = std::strerror(errno);
    return why;
}

std::string write_stdout(const DocumentWriter &produce) {
    std::cout.flush();
    std::fflush(stdout);
    return produce_into(STDOUT_FILENO, produce);
}

bool is_stream(const struct stat &st) {
    return S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode);
}

} // namespace

bool output_is_stream(const std::string &path) {
    if (path == "-") return true;
    std::string target;
    struct stat st;
    return follow_links(path, target) && stat(target.c_str(), &st) == 0 && is_stream(st);
}

namespace {

// Why PATH cannot be written; "" when it can.
std::string output_problem(const std::string &path) {
    if (path == "-") return "";
    if (path.empty()) return "the path is empty";
    std::string target;
    if (!follow_links(path, target)) return std::strerror(errno);
    const std::string base = base_of(target);
    if (base.empty() || base == "." || base == "..") return "it names a directory";
    struct stat st;
    if (stat(target.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) return "it is a directory";
        if (S_ISSOCK(st.st_mode)) return "it is a socket";
        // A read-only file stays protected, although replacing it would work.
        if (faccessat(AT_FDCWD, target.c_str(), W_OK, AT_EACCESS) != 0) return std::strerror(errno);
        if (is_stream(st)) return "";
    } else if (errno != ENOENT && errno != ENOTDIR) { // those: the directory says more
        return std::strerror(errno);
    }
    const std::string dir = dir_of(target);
    struct stat ds;
    if (stat(dir.c_str(), &ds) != 0) return "directory " + dir + ": " + std::strerror(errno);
    if (!S_ISDIR(ds.st_mode)) return dir + " is not a directory";
    // Permission bits do not tell it all (read-only mounts, quotas, root):
    // create the file it will take, then remove it.
    std::string temp;
    const int fd = create_temp(target, temp);
    if (fd < 0) return "cannot create a file in " + dir + ": " + std::strerror(errno);
    close(fd);
    unlink(temp.c_str());
    return "";
}

// Writes what PRODUCE makes to PATH; "" or why it failed.
std::string write_output_text(const std::string &path, const DocumentWriter &produce) {
    if (path == "-") return write_stdout(produce);
    std::string target;
    if (!follow_links(path, target)) return std::strerror(errno);
    struct stat st;
    if (stat(target.c_str(), &st) == 0) {
        if (is_stream(st)) return write_in_place(target, produce);
        if (S_ISSOCK(st.st_mode)) return "it is a socket";
    }
    return replace_file(target, produce);
}

} // namespace

Status check_output(const std::string &path) {
    if (std::string why = output_problem(path); !why.empty()) return unexpected(std::move(why));
    return {};
}

bool outputs_writable(const std::vector<std::pair<std::string, std::string>> &outputs) {
    bool ok = true;
    for (const auto &[option, path] : outputs) {
        if (path.empty()) continue; // not asked for
        const Status writable = check_output(path);
        if (writable.ok()) continue;
        std::fprintf(stderr, "cmdbench: cannot write %s %s: %s\n", option.c_str(), path.c_str(),
                     writable.error().c_str());
        ok = false;
    }
    return ok;
}

Status write_output(const std::string &path, const DocumentWriter &produce) {
    if (std::string why = write_output_text(path, produce); !why.empty())
        return unexpected(std::move(why));
    return {};
}

Status write_output(const std::string &path, const std::string &text) {
    return write_output(path, [&text](std::ostream &out) { out << text; });
}

} // namespace cmdbench

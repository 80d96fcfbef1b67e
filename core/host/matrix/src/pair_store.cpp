#include "cmdbench/host/matrix/pair_store.hpp"

#include "cmdbench/report/report.hpp"
#include "cmdbench/report/results_reader.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <unistd.h>

namespace cmdbench {
namespace {

// Writes all of TEXT at OFFSET; "" or why not.
std::string write_at(int fd, const std::string &text, uint64_t offset) {
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = pwrite(fd, text.data() + done, text.size() - done, off_t(offset + done));
        if (n > 0)
            done += size_t(n);
        else if (n < 0 && errno == EINTR)
            continue;
        else
            return n == 0 ? "nothing was written" : std::strerror(errno);
    }
    return "";
}

// A file in DIR without a name: O_TMPFILE, or a named one removed at once
// where the file system has no O_TMPFILE.
int nameless_file(const std::string &dir) {
    const int fd = open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0) return fd;
    std::string name = dir + "/.cmdbench-pairs-XXXXXX";
    const int named = mkostemp(name.data(), O_CLOEXEC);
    if (named >= 0) unlink(name.c_str());
    return named;
}

} // namespace

PairStore::PairStore(const std::string &dir) : dir_(dir) {
    fd_ = nameless_file(dir);
    if (fd_ < 0)
        throw std::runtime_error("cannot make a file for the pairs' results in " + dir + ": " +
                                 std::strerror(errno));
}

PairStore::~PairStore() {
    if (fd_ >= 0) close(fd_);
}

void PairStore::add(const RunResult &r) {
    if (!r.pair) return;
    const Key key{r.name, r.repeat, r.pair->client, r.pair->server};
    std::string line = run_json_line(r);
    line += '\n'; // a line each, for whoever looks at the file through /proc
    std::lock_guard<std::mutex> lock(mu_);
    const std::string why = write_at(fd_, line, end_);
    if (why.empty()) {
        on_disk_[key] = Place{end_, uint32_t(line.size())};
        in_memory_.erase(key);
        end_ += line.size();
        return;
    }
    if (problem_.empty())
        problem_ = "cannot keep the pairs' results on disk in " + dir_ + " (" + why +
                   "): the rest are kept in memory";
    on_disk_.erase(key);
    in_memory_[key] = std::move(line);
}

std::optional<RunResult> PairStore::get(const Key &key) const {
    std::string line;
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (auto it = in_memory_.find(key); it != in_memory_.end()) {
            line = it->second;
        } else if (auto at = on_disk_.find(key); at != on_disk_.end()) {
            line.resize(at->second.size);
            const ssize_t n = pread(fd_, line.data(), line.size(), off_t(at->second.offset));
            if (n != ssize_t(line.size()))
                throw std::runtime_error("cannot read a pair's result back from " + dir_ + ": " +
                                         (n < 0 ? std::strerror(errno) : "short read"));
        } else {
            return std::nullopt;
        }
    }
    return parse_run_line(line, "a pair's result kept on disk");
}

size_t PairStore::size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return on_disk_.size() + in_memory_.size();
}

std::string PairStore::problem() const {
    std::lock_guard<std::mutex> lock(mu_);
    return problem_;
}

} // namespace cmdbench

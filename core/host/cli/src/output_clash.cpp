#include "output_clash.hpp"

#include "cmdbench/base/usage_error.hpp"
#include "cmdbench/report/output_file.hpp"

#include <filesystem>
#include <sys/stat.h>

namespace fs = std::filesystem;

namespace cmdbench::cli {
namespace {

struct FileId {
    bool exists = false;
    dev_t dev = 0;
    ino_t ino = 0;
    std::string resolved; // for a file not there yet
};

// Where a write to `path` would create the file: a dangling symlink is
// followed, as the write follows it.
std::string creation_path(fs::path p) {
    std::error_code ec;
    for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
        const fs::path target = fs::read_symlink(p, ec);
        if (ec) break;
        p = target.is_absolute() ? target : p.parent_path() / target;
    }
    const fs::path absolute = fs::absolute(p, ec);
    const fs::path resolved = fs::weakly_canonical(absolute, ec);
    return (ec ? absolute.lexically_normal() : resolved).string();
}

FileId id_of(const std::string &path) {
    struct stat st {};
    if (stat(path.c_str(), &st) == 0) return {true, st.st_dev, st.st_ino, {}};
    return {false, 0, 0, creation_path(path)};
}

bool same(const FileId &a, const FileId &b) {
    if (a.exists != b.exists) return false;
    return a.exists ? a.dev == b.dev && a.ino == b.ino : a.resolved == b.resolved;
}

} // namespace

void check_outputs_apart(const std::vector<NamedPath> &outputs,
                         const std::vector<NamedPath> &inputs) {
    for (size_t i = 0; i < outputs.size(); ++i) {
        const NamedPath &out = outputs[i];
        if (out.path.empty() || output_is_stream(out.path)) continue;
        const FileId id = id_of(out.path);
        for (size_t j = i + 1; j < outputs.size(); ++j) {
            const NamedPath &other = outputs[j];
            if (!other.path.empty() && !output_is_stream(other.path) && same(id, id_of(other.path)))
                throw UsageError(out.what + " " + out.path + " and " + other.what + " " +
                                 other.path +
                                 " are the same file: one would replace the other; give each "
                                 "its own file");
        }
        for (const NamedPath &in : inputs)
            if (!in.path.empty() && same(id, id_of(in.path)))
                throw UsageError(out.what + " " + out.path + " is the same file as " + in.what +
                                 " " + in.path + ", which it would overwrite");
    }
}

} // namespace cmdbench::cli

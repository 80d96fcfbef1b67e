#include "shipped_names.hpp"

#include <filesystem>

namespace fs = std::filesystem;

namespace cmdbench {
namespace {

bool inside(const std::string &file, const std::string &dir) {
    if (dir.empty()) return false;
    std::error_code ec;
    fs::path d = fs::weakly_canonical(dir, ec);
    if (ec) return false;
    fs::path f = fs::weakly_canonical(file, ec);
    if (ec) return false;
    return f.parent_path() == d;
}

} // namespace

Status check_shipped_name(const Registry &registry, const LoadedPlugin &incoming,
                          const std::string &shipped_dir) {
    if (inside(incoming.file, shipped_dir)) return {};
    const std::string name = incoming.desc->name;
    for (const LoadedPlugin &p : registry.plugins())
        if (name == p.desc->name && inside(p.file, shipped_dir))
            return unexpected(incoming.file + ": plugin name '" + name +
                              "' belongs to the plugin shipped with " + "cmdbench (" + p.file +
                              "); rename this plugin");
    return {};
}

} // namespace cmdbench

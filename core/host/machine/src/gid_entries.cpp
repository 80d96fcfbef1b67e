// sysfs: /sys/class/infiniband/DEV/ports/N/gids/I (the GID, all zeros when
// unused) and gid_attrs/{types,ndevs}/I (its RoCE version and netdev).
#include "cmdbench/host/machine/gid_entries.hpp"

#include "cmdbench/host/machine/sysfs_files.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace cmdbench {
namespace {

namespace fs = std::filesystem;

// "fe80:0000:...:376f" -> 16 bytes.
std::optional<std::array<uint8_t, 16>> parse_gid(const std::string &text) {
    std::string hex;
    for (char c : text)
        if (c != ':') hex += c;
    if (hex.size() != 32) return std::nullopt;
    std::array<uint8_t, 16> g{};
    for (size_t i = 0; i < 16; ++i) {
        unsigned v = 0;
        if (std::sscanf(hex.c_str() + 2 * i, "%2x", &v) != 1) return std::nullopt;
        g[i] = uint8_t(v);
    }
    return g;
}

std::vector<GidEntry> sysfs_gids(const fs::path &dev) {
    std::vector<GidEntry> out;
    for (const std::string &port : numbered_entries(dev / "ports")) {
        const fs::path p = dev / "ports" / port;
        for (const std::string &idx : numbered_entries(p / "gids")) {
            const auto gid = parse_gid(first_line(p / "gids" / idx));
            if (!gid || std::all_of(gid->begin(), gid->end(), [](uint8_t b) { return !b; }))
                continue;
            out.push_back(GidEntry{unsigned(std::stoul(port)), std::stoi(idx), *gid,
                                   value_or_unknown(p / "gid_attrs" / "types" / idx),
                                   value_or_unknown(p / "gid_attrs" / "ndevs" / idx)});
        }
    }
    return out;
}

} // namespace

std::vector<GidEntry> gid_entries(const std::string &sysfs_root, const std::string &device,
                                  GidTable gid_table) {
    std::optional<std::vector<GidEntry>> entries;
    if (gid_table) entries = gid_table(device);
    if (!entries) entries = sysfs_gids(fs::path(sysfs_root) / "class" / "infiniband" / device);
    std::sort(entries->begin(), entries->end(), [](const GidEntry &a, const GidEntry &b) {
        return a.port != b.port ? a.port < b.port : a.index < b.index;
    });
    return std::move(*entries);
}

} // namespace cmdbench

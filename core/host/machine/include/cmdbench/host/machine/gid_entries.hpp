// The valid entries of an RDMA device's GID tables (one per port): the
// addresses RoCE carries, how a device is found from an address and an
// address from a device. sysfs has a file per entry, valid or not, and
// Soft-RoCE's table has 1,024 of them: read that way in an emulated machine
// a scan took ~0.5 s. libibverbs gives the valid ones in one call.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cmdbench {

struct GidEntry {
    unsigned port = 0;
    int index = -1;
    std::array<uint8_t, 16> gid{};
    std::string type;   // as sysfs names it: "IB/RoCE v1" or "RoCE v2"
    std::string netdev; // "unknown" when none (InfiniBand)
};

// A device's valid entries at once, or nullopt when it cannot say (then
// sysfs is read).
using GidTable = std::optional<std::vector<GidEntry>> (*)(const std::string &device);

// This machine's, from libibverbs (ibv_query_gid_table); nullopt when
// libibverbs or the device is not there, or the call fails.
std::optional<std::vector<GidEntry>> ibv_gid_table(const std::string &device);

// The valid entries of `device` in port and index order: what `gid_table`
// (may be null) answers, else what the sysfs tree at `sysfs_root` has.
std::vector<GidEntry> gid_entries(const std::string &sysfs_root, const std::string &device,
                                  GidTable gid_table);

} // namespace cmdbench

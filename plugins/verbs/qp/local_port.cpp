// The device and port of an exchange-mode run (see local_port.hpp).
#include "qp/local_port.hpp"

#include "run/verbs_run.hpp"

#include <algorithm>
#include <cerrno>
#include <cmdbench/rdma-util/device_checks.hpp>
#include <cstdio>
#include <cstring>
#include <vector>

namespace cmdbench::verbs {
namespace {

constexpr int kMtus[] = {256, 512, 1024, 2048, 4096};

// The device list, closed when done.
struct DeviceList {
    DeviceList() : list(ibv_get_device_list(&n)) {}
    ~DeviceList() {
        if (list) ibv_free_device_list(list);
    }
    std::string names() const {
        std::string out;
        for (int i = 0; i < n; ++i)
            out += (i ? ", " : "") + std::string(ibv_get_device_name(list[i]));
        return out;
    }
    int n = 0;
    ibv_device **list;
};

} // namespace

uint32_t mtu_bytes(ibv_mtu mtu) {
    return 128u << unsigned(mtu);
}

ibv_mtu mtu_of_bytes(uint32_t bytes) {
    for (int m : kMtus)
        if (uint32_t(m) == bytes) return ibv_mtu(__builtin_ctz(unsigned(m)) - 7);
    return ibv_mtu(0);
}

bool gid_empty(const ibv_gid &gid) {
    static const ibv_gid zero{};
    return std::memcmp(&gid, &zero, sizeof gid) == 0;
}

std::string gid_text(const ibv_gid &gid) {
    char text[48];
    const uint8_t *r = gid.raw;
    std::snprintf(text, sizeof text,
                  "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x", r[0],
                  r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13],
                  r[14], r[15]);
    return text;
}

LocalPort::LocalPort(const LinkSpec &link) : port_(uint8_t(link.ib_port)) {
    try {
        open(link);
        choose_gid(link.gid_index);
        choose_mtu(link.mtu);
    } catch (...) {
        if (context_) ibv_close_device(context_);
        throw;
    }
}

LocalPort::~LocalPort() {
    if (context_) ibv_close_device(context_);
}

void LocalPort::open(const LinkSpec &link) {
    const DeviceList devices;
    if (!devices.list)
        skip_no_device("ibv_get_device_list: " + cmdbench::support::errno_text(errno));
    if (devices.n == 0) skip_no_device("ibv_get_device_list found none");
    std::string down; // why each device was passed over (device = "")
    for (int i = 0; i < devices.n; ++i) {
        const std::string name = ibv_get_device_name(devices.list[i]);
        if (!link.device.empty() && name != link.device) continue;
        ibv_context *ctx = ibv_open_device(devices.list[i]);
        if (!ctx) fail_errno("ibv_open_device " + name, errno);
        ibv_device_attr dev{};
        const bool has_port =
            ibv_query_device(ctx, &dev) == 0 && link.ib_port <= int(dev.phys_port_cnt);
        ibv_port_attr attr{};
        const bool active =
            has_port && ibv_query_port(ctx, port_, &attr) == 0 && attr.state == IBV_PORT_ACTIVE;
        if (active) {
            rd_atomic_ = uint32_t(std::min({dev.max_qp_rd_atom, dev.max_qp_init_rd_atom, 255}));
            context_ = ctx;
            device_ = name;
            attr_ = attr;
            return;
        }
        ibv_close_device(ctx);
        const std::string why =
            !has_port ? "ib_port = " + std::to_string(link.ib_port) + " is not a port of " + name +
                            " (ports 1.." + std::to_string(dev.phys_port_cnt) + ")"
                      : cmdbench::rdma::port_state_problem(name, link.ib_port, attr.state);
        if (!link.device.empty()) fail("verbs: " + why);
        down += (down.empty() ? "" : "; ") + why;
    }
    if (!link.device.empty())
        fail("verbs: device = \"" + link.device +
             "\" is not an RDMA device here; RDMA devices: " + devices.names());
    fail("verbs: no RDMA device has port " + std::to_string(link.ib_port) + " ACTIVE: " + down);
}

int LocalPort::first_roce_v2_ipv4_gid(int table) const {
    for (int i = 0; i < table; ++i) {
        ibv_gid_entry e{};
        if (ibv_query_gid_ex(context_, port_, uint32_t(i), &e, 0) != 0) continue;
        const uint8_t *raw = e.gid.raw;
        const bool v4_mapped = std::all_of(raw, raw + 10, [](uint8_t b) { return b == 0; }) &&
                               raw[10] == 0xff && raw[11] == 0xff;
        if (e.gid_type == IBV_GID_TYPE_ROCE_V2 && v4_mapped) return i;
    }
    return -1;
}

void LocalPort::choose_gid(int asked) {
    const int table = attr_.gid_tbl_len;
    auto gid_at = [&](int index, ibv_gid &gid) {
        return ibv_query_gid(context_, port_, index, &gid) == 0 && !gid_empty(gid);
    };
    auto valid = [&] {
        std::string out;
        ibv_gid g{};
        for (int i = 0; i < table; ++i)
            if (gid_at(i, g)) out += (out.empty() ? "" : ", ") + std::to_string(i);
        return out.empty() ? std::string("none") : out;
    };
    const std::string where = device_ + " port " + std::to_string(port_);
    if (asked >= 0) {
        if (asked >= table)
            fail("verbs: gid_index = " + std::to_string(asked) + " is outside the GID table of " +
                 where + " (" + std::to_string(table) + " entries); valid indexes: " + valid());
        if (!gid_at(asked, gid_))
            fail("verbs: gid_index = " + std::to_string(asked) + " is an empty GID on " + where +
                 "; valid indexes: " + valid());
        gid_index_ = asked;
        return;
    }
    // As perftest: InfiniBand goes without a GRH; RoCE needs one, where
    // perftest 4.5 takes (seen on rxe) the first RoCE v2 GID of an IPv4
    // address, which a routed network can carry, else the first GID there is.
    if (!ethernet()) {
        ibv_query_gid(context_, port_, 0, &gid_);
        return;
    }
    const int roce_v2_ipv4 = first_roce_v2_ipv4_gid(table);
    for (int i = roce_v2_ipv4 >= 0 ? roce_v2_ipv4 : 0; i < table; ++i)
        if (gid_at(i, gid_)) {
            gid_index_ = i;
            return;
        }
    fail("verbs: " + where + " has no GID (its network interface has no address?)");
}

void LocalPort::choose_mtu(int asked) {
    mtu_ = attr_.active_mtu;
    if (asked == 0) return;
    if (uint32_t(asked) > mtu_bytes(attr_.max_mtu))
        fail("verbs: mtu = " + std::to_string(asked) + " is more than " + device_ + " port " +
             std::to_string(port_) + " carries (max_mtu " +
             std::to_string(mtu_bytes(attr_.max_mtu)) + "): mtu must be 0 or at most " +
             std::to_string(mtu_bytes(attr_.max_mtu)));
    mtu_ = mtu_of_bytes(uint32_t(asked));
}

} // namespace cmdbench::verbs

// The device and port a run's QPs use when the peers connect them without
// rdma_cm (connect = "exchange"): opened by name or as the first device with
// the port ACTIVE, and checked before any QP is made, so a port that is down,
// an unknown device, a GID index with no GID or an MTU the port cannot carry
// fail at once naming what there is.
#ifndef CMDBENCH_VERBS_LOCAL_PORT_HPP
#define CMDBENCH_VERBS_LOCAL_PORT_HPP

#include "qp/link_spec.hpp"

#include <cstdint>
#include <infiniband/verbs.h>
#include <string>

namespace cmdbench::verbs {

// Bytes of an MTU enum (IBV_MTU_256 is 1) and back; 0 for a value that is
// no MTU.
uint32_t mtu_bytes(ibv_mtu mtu);
ibv_mtu mtu_of_bytes(uint32_t bytes);
std::string gid_text(const ibv_gid &gid);
bool gid_empty(const ibv_gid &gid);

class LocalPort {
  public:
    // Skips (needs an RDMA device) when there is none at all; fails on
    // anything else that is wrong with link.device, ib_port, gid_index, mtu.
    explicit LocalPort(const LinkSpec &link);
    ~LocalPort();
    LocalPort(const LocalPort &) = delete;
    LocalPort &operator=(const LocalPort &) = delete;

    ibv_context *context() const { return context_; }
    const std::string &device() const { return device_; }
    uint8_t port() const { return port_; }
    uint16_t lid() const { return attr_.lid; }
    bool ethernet() const { return attr_.link_layer == IBV_LINK_LAYER_ETHERNET; }
    // -1: no GRH (InfiniBand with gid_index = -1).
    int gid_index() const { return gid_index_; }
    const ibv_gid &gid() const { return gid_; }
    // The MTU this side offers: mtu, or the port's active MTU.
    ibv_mtu mtu() const { return mtu_; }
    // The READ/atomic depth the device allows a QP, both ways.
    uint32_t rd_atomic() const { return rd_atomic_; }

  private:
    void open(const LinkSpec &link);
    // The index of the first RoCE v2 GID of an IPv4 address, or -1.
    int first_roce_v2_ipv4_gid(int table) const;
    void choose_gid(int asked);
    void choose_mtu(int asked);

    ibv_context *context_ = nullptr;
    std::string device_;
    uint8_t port_ = 1;
    ibv_port_attr attr_{};
    int gid_index_ = -1;
    ibv_gid gid_{};
    ibv_mtu mtu_ = IBV_MTU_1024;
    uint32_t rd_atomic_ = 0;
};

} // namespace cmdbench::verbs

#endif

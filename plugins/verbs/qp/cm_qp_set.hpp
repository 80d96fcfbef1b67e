// What the QPs of an RC or UC run (RcQpSet) and a UD one (UdQpSet) both do
// first. connect = "rdma_cm": the device check, the rdma_cm event channel,
// and the meeting over the control channel: the server listens and announces
// its address, the client gets it. connect = "exchange": the device and port
// (LocalPort), which outlive the QPs. Both: the facts of the connection made.
#ifndef CMDBENCH_VERBS_CM_QP_SET_HPP
#define CMDBENCH_VERBS_CM_QP_SET_HPP

#include "qp/cm_link.hpp"
#include "qp/local_port.hpp"

#include <memory>

namespace cmdbench::verbs {

class CmQpSet {
  public:
    CmQpSet(const CmQpSet &) = delete;
    CmQpSet &operator=(const CmQpSet &) = delete;

    // Device, port, GID, path MTU and each QP's numbers, once connected.
    const LinkFacts &facts() const { return facts_; }

  protected:
    CmQpSet() = default;
    ~CmQpSet();

    // Skips (needs an RDMA device) without a usable device; fails when
    // bind_address is on none of the devices. Server: listens
    // in port space `ps` and announces where; returns nothing. Client: returns
    // the server's address (its own host's, if the server listens on any).
    sockaddr_storage meet(Run &run, const LinkSpec &link, rdma_port_space ps);
    // Keeps the facts and logs them (debug).
    void record(Run &run, LinkFacts facts);

    std::unique_ptr<LocalPort> local_; // exchange mode
    std::unique_ptr<CmChannel> channel_;
    rdma_cm_id *listener_ = nullptr;
    LinkFacts facts_;
};

} // namespace cmdbench::verbs

#endif

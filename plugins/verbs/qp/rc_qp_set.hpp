// The RC or UC QPs of one run, both roles: every QP connected over rdma_cm
// or through the exchange over the control channel (connect), and teardown.
#ifndef CMDBENCH_VERBS_RC_QP_SET_HPP
#define CMDBENCH_VERBS_RC_QP_SET_HPP

#include "qp/cm_qp_set.hpp"
#include "qp/conn.hpp"

namespace cmdbench::verbs {

class RcQpSet : public CmQpSet {
  public:
    // Skips (needs an RDMA device) without a usable device; connects link.qps
    // QPs of spec.type.
    RcQpSet(Run &run, const LinkSpec &link, const ConnSpec &spec);
    ~RcQpSet();

    const Conns &conns() const { return conns_; }
    Conn &conn(size_t i) const { return *conns_[i]; }
    // Both peers are done with the QPs: a barrier, then teardown.
    void finish(Run &run);

  private:
    void connect_by_exchange(Run &run, const LinkSpec &link, const ConnSpec &spec);

    Conns conns_;
};

} // namespace cmdbench::verbs

#endif

// The RC QPs of one run, both roles: every QP connected over rdma_cm, and
// teardown.
#ifndef CMDBENCH_VERBS_SESSION_HPP
#define CMDBENCH_VERBS_SESSION_HPP

#include "qp/cm_session.hpp"
#include "qp/conn.hpp"

namespace cmdbench::verbs {

class Session : public CmSession {
  public:
    // Skips (needs an RDMA device) without a usable device; connects link.qps QPs.
    Session(Run &run, const LinkSpec &link, const ConnSpec &spec);
    ~Session();

    const Conns &conns() const { return conns_; }
    Conn &conn(size_t i) const { return *conns_[i]; }
    // Both peers are done with the QPs: a barrier, then teardown.
    void finish(Run &run);

  private:
    Conns conns_;
};

} // namespace cmdbench::verbs

#endif

// The QPs of one run, both roles: device check, the server's listener and its
// address sent over the control channel, every QP connected, and teardown.
#ifndef CMDBENCH_VERBS_SESSION_HPP
#define CMDBENCH_VERBS_SESSION_HPP

#include "qp/conn.hpp"

namespace verbs {

class Session {
  public:
    // Skips (needs an RDMA device) without a usable device; connects p.qps QPs.
    Session(Run &run, const Params &p, const ConnSpec &spec);
    ~Session();
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;

    const Conns &conns() const { return conns_; }
    Conn &conn(size_t i) const { return *conns_[i]; }
    // Both peers are done with the QPs: a barrier, then teardown.
    void finish(Run &run);

  private:
    std::unique_ptr<CmChannel> channel_;
    rdma_cm_id *listener_ = nullptr;
    Conns conns_;
};

// The buffer region every QP gets for `p` (largest size, cache-line rounded).
size_t region_for(const Params &p);

} // namespace verbs

#endif

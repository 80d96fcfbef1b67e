// UD QPs for qp_type = "ud" (perftest's -c UD). With connect = "exchange"
// the peers swap QP numbers, LID and GID over the control channel and make
// address handles from them (fixed qkey). With "rdma_cm": addressed through
// rdma_cm's UDP port space. The client resolves the server's address and route and
// rdma_connect()s (a SIDR request carrying its QP index and qkey); the server
// makes a UD QP for each request and rdma_accept()s, and the client's
// ESTABLISHED event carries the server QP's address vector, number and qkey.
// Every receive lands behind the 40-byte GRH, so receive buffers are
// size + 40 and the payload starts at payload().
#ifndef CMDBENCH_VERBS_UD_CONN_HPP
#define CMDBENCH_VERBS_UD_CONN_HPP

#include "qp/cm_qp_set.hpp"
#include "qp/qp_resources.hpp"

#include <infiniband/verbs.h>
#include <memory>
#include <rdma/rdma_cma.h>
#include <vector>

namespace cmdbench::verbs {

constexpr size_t kGrhBytes = 40;

// region: the largest payload (send buffer; the receive one is this + GRH).
using UdSpec = QpSpec;

class UdConn : public QpResources {
  public:
    UdConn(rdma_cm_id *id, const UdSpec &spec, uint32_t index);
    // Without rdma_cm: a UD QP in RESET on `context`'s `port`, whose
    // messages are at most `mtu` bytes (the path MTU the peers agreed on).
    UdConn(ibv_context *context, uint8_t port, const UdSpec &spec, uint32_t index, uint32_t mtu);
    ~UdConn();

    const uint8_t *payload() const { return buf_ + region_ + kGrhBytes; }
    // Bytes of the port's active MTU: the most one UD message can carry.
    uint32_t mtu() const { return mtu_; }
    void set_mtu(uint32_t mtu) { mtu_ = mtu; }

    // Our QP's index and qkey, for the SIDR request.
    std::vector<uint8_t> private_data() const;
    bool has_peer() const { return ah_ != nullptr; }
    // Client: the server QP from the ESTABLISHED event.
    void set_peer(const rdma_ud_param &ud);
    // Exchange mode: the peer's address, QP number and qkey.
    void set_peer(ibv_ah_attr attr, uint32_t qpn, uint32_t qkey);
    uint32_t remote_qpn() const { return remote_qpn_; }
    // The address set_peer used (zero before, or when the peer was learnt).
    const ibv_ah_attr &ah_attr() const { return ah_attr_; }
    // Server: the client QP's qkey from its request, then its address from a
    // receive completion (the GRH is in our buffer).
    void set_peer_qkey(uint32_t qkey) { remote_qkey_ = qkey; }
    void learn_peer(const ibv_wc &wc);

    void post_send(uint32_t len, bool signaled, uint64_t wr_id, uint64_t list = 1);
    void post_recv(uint64_t wr_id);

  private:
    // buf_: the send region, then GRH + receive region.
    uint32_t mtu_ = 0;
    ibv_ah *ah_ = nullptr;
    ibv_ah_attr ah_attr_{};
    uint32_t remote_qpn_ = 0, remote_qkey_ = 0;
};

using UdConns = std::vector<std::unique_ptr<UdConn>>;

// The QPs of one UD run, both roles (as RcQpSet for RC).
class UdQpSet : public CmQpSet {
  public:
    UdQpSet(Run &run, const LinkSpec &link, const UdSpec &spec);
    ~UdQpSet();

    const UdConns &conns() const { return conns_; }
    // The smallest MTU of our QPs' ports.
    uint32_t mtu() const;
    void finish(Run &run);

  private:
    void connect(Run &run, const LinkSpec &link, const sockaddr_storage &server,
                 const UdSpec &spec);
    void accept(Run &run, const LinkSpec &link, const UdSpec &spec);
    void connect_by_exchange(Run &run, const LinkSpec &link, const UdSpec &spec);
    // The facts of the QPs made, recorded and logged.
    void describe(Run &run, Connect connect);

    UdConns conns_;
};

// The sizes a UD run measures: `sizes`, or the MTU when `mtu_by_default`
// (verbs-bw's default [65536]: perftest caps its default the same way); any
// size above the MTU fails the run naming it. `test` prefixes the message.
std::vector<int64_t> ud_sizes(std::vector<int64_t> sizes, bool mtu_by_default, uint32_t mtu,
                              const char *test);

} // namespace cmdbench::verbs

#endif

// One RC or UC QP, over its own rdma_cm connection or connected by the peers
// swapping its number (exchange_link.hpp): protection domain, completion
// channel and CQ, the QP, and one registered buffer split into a send region
// and a receive region (each as large as the largest message). The peers swap
// the address and rkey of both regions in the connection's private data, or
// in the exchange.
#ifndef CMDBENCH_VERBS_CONN_HPP
#define CMDBENCH_VERBS_CONN_HPP

#include "qp/cm_link.hpp"
#include "qp/qp_resources.hpp"

#include <infiniband/verbs.h>
#include <memory>
#include <rdma/rdma_cma.h>
#include <vector>

namespace cmdbench::verbs {

// The operand of an RDMA atomic, and so its only message size.
constexpr int64_t kAtomicSize = 8;

// The peer's buffer, as its private data announced it.
struct RemoteBuffer {
    uint32_t index = 0; // the QP's number in the run, 0 .. qps-1
    uint32_t rkey = 0;
    uint64_t send_addr = 0; // what RDMA READ reads
    uint64_t recv_addr = 0; // where RDMA WRITE lands
    uint32_t region = 0;
};

// What every QP of a run is made with.
struct ConnSpec : QpSpec {
    bool rdma_read = false;        // ask for RDMA READ resources in the CM handshake
    bool atomics = false;          // the peer may run RDMA atomics on our buffer
    ibv_qp_type type = IBV_QPT_RC; // RC or UC (UC: exchange mode only)
};

// The rights the peer gets on our buffer.
int conn_access(const ConnSpec &spec);

// A READ or an atomic built once and posted again every round trip with a
// new wr_id (and, for an atomic, new operands): the latency loop's post,
// with nothing to build between two round trips, as perftest's. Holds the
// SGE its request points to, so it stays where it was made.
struct OneSidedWr {
    OneSidedWr() = default;
    OneSidedWr(const OneSidedWr &) = delete;
    OneSidedWr &operator=(const OneSidedWr &) = delete;
    ibv_sge sge{};
    ibv_send_wr wr{};
};

class Conn : public QpResources {
  public:
    Conn(rdma_cm_id *id, const ConnSpec &spec, uint32_t index);
    // Without rdma_cm: a QP in RESET on `context`'s `port`.
    Conn(ibv_context *context, uint8_t port, const ConnSpec &spec, uint32_t index);

    uint8_t *recv_buf() const { return buf_ + region_; }
    const RemoteBuffer &remote() const { return remote_; }
    void set_remote(const RemoteBuffer &r) { remote_ = r; }
    // Our buffer as the peer needs it.
    RemoteBuffer local_buffer() const;

    // Our private data for rdma_connect / rdma_accept.
    std::vector<uint8_t> private_data() const;
    // CM parameters: private data, RDMA READ depths, retries.
    rdma_conn_param conn_param(const std::vector<uint8_t> &data) const;

    // SEND / RDMA WRITE / RDMA READ of `len` bytes from (or, for READ, into)
    // this side's buffer; inline when len fits. With `list` > 1, that many
    // chained in one post, wr_id and `signaled` the last's (submit_list).
    void post(ibv_wr_opcode opcode, uint32_t len, bool signaled, uint64_t wr_id, uint64_t list = 1);
    // An 8-byte RDMA atomic on the peer's target (its send region); the
    // value it returns lands at the start of our receive region. With
    // `list` > 1 as post's. (The latency loop posts a prepared one instead.)
    void post_atomic(ibv_wr_opcode opcode, uint64_t compare_add, uint64_t swap, bool signaled,
                     uint64_t wr_id, uint64_t list = 1);
    // `op` as a signalled RDMA READ of `len` bytes of the peer's send region
    // into our receive region, or an atomic `opcode` on the peer's target
    // (operands: op.wr.wr.atomic.compare_add and .swap, set before a post).
    void prepare_read(OneSidedWr &op, uint32_t len) const;
    void prepare_atomic(OneSidedWr &op, ibv_wr_opcode opcode) const;
    void post_prepared(OneSidedWr &op, uint64_t wr_id) const {
        op.wr.wr_id = wr_id;
        submit(op.wr, "ibv_post_send");
    }
    void post_recv(uint64_t wr_id);
    // A receiver of SEND: lowers the QP's RNR wait (min_rnr_timer) to
    // 0.64 ms if it is longer; returns the encoded value found (0 = 655 ms,
    // the value rdma_cm gives a responder), or -1 if the QP refused.
    int shorten_rnr_wait();

  private:
    void make(const ConnSpec &spec);

    uint8_t rd_atomic_ = 0;
    RemoteBuffer remote_;
};

RemoteBuffer decode_private_data(const std::vector<uint8_t> &data, const char *what);

using Conns = std::vector<std::unique_ptr<Conn>>;

// The server's listener in port space `ps` (RC: RDMA_PS_TCP, UD:
// RDMA_PS_UDP): bound (bind_address, else the address the client reached),
// listening, its address announced to the client.
rdma_cm_id *listen_for_clients(CmChannel &channel, const Run &run, const LinkSpec &link,
                               rdma_port_space ps);
// Client: link.qps connections to `server`, one after the other.
Conns connect_to_server(CmChannel &channel, const Run &run, const LinkSpec &link,
                        const sockaddr_storage &server, const ConnSpec &spec);
// Server: accept link.qps connections, ordered by the client's QP index.
Conns accept_clients(CmChannel &channel, const Run &run, const LinkSpec &link,
                     const ConnSpec &spec);
// Disconnects every QP and frees them (no waiting for the peer).
void close_all(CmChannel &channel, Conns &conns);

} // namespace cmdbench::verbs

#endif

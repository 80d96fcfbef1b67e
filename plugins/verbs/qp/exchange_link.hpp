// connect = "exchange": what the peers swap over the control channel to
// connect their QPs without rdma_cm (as perftest does without -R), and the
// QP state changes that follow. Each side sends its port's LID, GID and MTU
// and, per QP, its number, first PSN and buffer; each then moves its QPs
// INIT -> RTR -> RTS towards the peer's, at the smaller of the two MTUs.
#ifndef CMDBENCH_VERBS_EXCHANGE_LINK_HPP
#define CMDBENCH_VERBS_EXCHANGE_LINK_HPP

#include "qp/conn.hpp"
#include "qp/local_port.hpp"

#include <vector>

namespace cmdbench::verbs {

// The qkey every UD QP of exchange mode uses (perftest's).
constexpr uint32_t kExchangeQkey = 0x11111111;

// One QP as its side announces it.
struct WireQp {
    uint32_t qpn = 0, psn = 0;
    RemoteBuffer buffer; // index, rkey, addresses, region
};

// A side's port and QPs.
struct WireLink {
    uint32_t qp_type = 0; // ibv_qp_type
    uint16_t lid = 0;
    ibv_gid gid{};
    uint32_t mtu = 0;       // bytes: asked, or the port's active MTU
    uint32_t rd_atomic = 0; // RC: the READ/atomic depth the side's device allows
    std::vector<WireQp> qps;
};

// A random 24-bit first PSN.
uint32_t random_psn();

// Sends ours, returns the peer's, checked: a verbs peer in exchange mode with
// the same QP type and number of QPs.
WireLink swap_links(const Run &run, const WireLink &ours);

// RESET -> INIT on the port, with `access` rights for the peer (RC, UC) or
// the fixed qkey (UD).
void qp_to_init(ibv_qp *qp, const LocalPort &port, int access);
struct PathSpec {
    ibv_ah_attr ah{};
    ibv_mtu mtu = IBV_MTU_1024;
    uint8_t rd_atomic = 0; // RC: READ/atomic depth both ways
};
// RC, UC: INIT -> RTR -> RTS towards `peer`, first PSN `psn`.
// UD: INIT -> RTR -> RTS (`peer` unused), `psn` its first send PSN.
void qp_to_rts(ibv_qp *qp, const PathSpec &path, const WireQp *peer, uint32_t psn);

// The address of the peer's port from here: its LID, and with a GID index
// (always on RoCE) a GRH to its GID with sl and traffic_class; the smaller
// MTU and READ/atomic depth of the two sides.
PathSpec path_to(const LocalPort &port, const LinkSpec &link, const WireLink &peer);

} // namespace cmdbench::verbs

#endif

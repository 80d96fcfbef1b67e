// Connecting QPs over the control channel (see exchange_link.hpp).
#include "qp/exchange_link.hpp"

#include <algorithm>
#include <cerrno>
#include <cmdbench/plugin-support/byte_order.hpp>
#include <cstring>
#include <random>

namespace cmdbench::verbs {
namespace {

constexpr uint32_t kMagic = 0x56584348; // "VXCH"
constexpr size_t kHeader = 4 + 4 + 2 + 16 + 4 + 4 + 4;
constexpr size_t kPerQp = 4 + 4 + 4 + 4 + 4 + 8 + 8;

constexpr auto put = cmdbench::support::append_be;
constexpr auto get = cmdbench::support::take_be;

const char *type_name(uint32_t type) {
    return type == IBV_QPT_RC ? "rc" : type == IBV_QPT_UC ? "uc" : type == IBV_QPT_UD ? "ud" : "?";
}

std::vector<uint8_t> encode(const WireLink &l) {
    std::vector<uint8_t> out;
    put(out, kMagic, 4);
    put(out, l.qp_type, 4);
    put(out, l.lid, 2);
    out.insert(out.end(), l.gid.raw, l.gid.raw + 16);
    put(out, l.mtu, 4);
    put(out, l.rd_atomic, 4);
    put(out, l.qps.size(), 4);
    for (const WireQp &q : l.qps) {
        put(out, q.buffer.index, 4);
        put(out, q.qpn, 4);
        put(out, q.psn, 4);
        put(out, q.buffer.rkey, 4);
        put(out, q.buffer.region, 4);
        put(out, q.buffer.send_addr, 8);
        put(out, q.buffer.recv_addr, 8);
    }
    return out;
}

WireLink decode(const std::vector<uint8_t> &b) {
    const uint8_t *p = b.data();
    if (b.size() < kHeader || get(p, 4) != kMagic)
        fail("verbs: the peer's QP exchange is not from a verbs-lat / verbs-bw peer with "
             "connect = \"exchange\" (does it run connect = \"rdma_cm\"?)");
    WireLink l;
    l.qp_type = uint32_t(get(p, 4));
    l.lid = uint16_t(get(p, 2));
    std::memcpy(l.gid.raw, p, 16);
    p += 16;
    l.mtu = uint32_t(get(p, 4));
    l.rd_atomic = uint32_t(get(p, 4));
    const auto n = size_t(get(p, 4));
    if (b.size() != kHeader + n * kPerQp) fail("verbs: the peer's QP exchange is malformed");
    l.qps.resize(n);
    for (WireQp &q : l.qps) {
        q.buffer.index = uint32_t(get(p, 4));
        q.qpn = uint32_t(get(p, 4));
        q.psn = uint32_t(get(p, 4));
        q.buffer.rkey = uint32_t(get(p, 4));
        q.buffer.region = uint32_t(get(p, 4));
        q.buffer.send_addr = get(p, 8);
        q.buffer.recv_addr = get(p, 8);
    }
    return l;
}

void modify(ibv_qp *qp, ibv_qp_attr &attr, int mask, const char *to) {
    const int rc = ibv_modify_qp(qp, &attr, mask);
    if (rc != 0) fail_errno(std::string("ibv_modify_qp to ") + to, rc);
}

} // namespace

uint32_t random_psn() {
    static thread_local std::mt19937 gen{std::random_device{}()};
    return uint32_t(gen()) & 0xffffff;
}

WireLink swap_links(const Run &run, const WireLink &ours) {
    const WireLink peer = decode(run.exchange(encode(ours), "the peer's QPs (connect = exchange)"));
    if (peer.qp_type != ours.qp_type)
        fail(std::string("verbs: the peer makes qp_type = \"") + type_name(peer.qp_type) +
             "\" QPs, this side \"" + type_name(ours.qp_type) + "\"");
    if (peer.qps.size() != ours.qps.size())
        fail("verbs: the peer has " + std::to_string(peer.qps.size()) + " QPs, this side " +
             std::to_string(ours.qps.size()));
    for (size_t i = 0; i < peer.qps.size(); ++i)
        if (peer.qps[i].buffer.index != i) fail("verbs: the peer's QPs are out of order");
    return peer;
}

void qp_to_init(ibv_qp *qp, const LocalPort &port, int access) {
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_INIT;
    attr.pkey_index = 0;
    attr.port_num = port.port();
    int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;
    if (qp->qp_type == IBV_QPT_UD) {
        attr.qkey = kExchangeQkey;
        mask |= IBV_QP_QKEY;
    } else {
        attr.qp_access_flags = unsigned(access);
        mask |= IBV_QP_ACCESS_FLAGS;
    }
    modify(qp, attr, mask, "INIT");
}

void qp_to_rts(ibv_qp *qp, const PathSpec &path, const WireQp *peer, uint32_t psn) {
    const bool rc = qp->qp_type == IBV_QPT_RC;
    const bool ud = qp->qp_type == IBV_QPT_UD;
    ibv_qp_attr rtr{};
    rtr.qp_state = IBV_QPS_RTR;
    int mask = IBV_QP_STATE;
    if (!ud) {
        rtr.path_mtu = path.mtu;
        rtr.dest_qp_num = peer->qpn;
        rtr.rq_psn = peer->psn;
        rtr.ah_attr = path.ah;
        mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
    }
    if (rc) {
        rtr.max_dest_rd_atomic = path.rd_atomic;
        rtr.min_rnr_timer = 12; // 0.64 ms, perftest's
        mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
    }
    modify(qp, rtr, mask, "RTR");
    ibv_qp_attr rts{};
    rts.qp_state = IBV_QPS_RTS;
    rts.sq_psn = psn;
    mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
    if (rc) {
        // perftest's: 4.096 us << 14 = 67 ms per try, 7 tries, RNR infinite
        rts.timeout = 14;
        rts.retry_cnt = 7;
        rts.rnr_retry = 7;
        rts.max_rd_atomic = path.rd_atomic;
        mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
    }
    modify(qp, rts, mask, "RTS");
}

PathSpec path_to(const LocalPort &port, const LinkSpec &link, const WireLink &peer) {
    PathSpec path;
    path.mtu = std::min(port.mtu(), mtu_of_bytes(peer.mtu) ? mtu_of_bytes(peer.mtu) : port.mtu());
    path.rd_atomic = uint8_t(std::min(port.rd_atomic(), peer.rd_atomic));
    ibv_ah_attr &ah = path.ah;
    ah.dlid = peer.lid;
    ah.sl = uint8_t(link.sl);
    ah.port_num = port.port();
    if (port.gid_index() >= 0) {
        if (gid_empty(peer.gid))
            fail("verbs: the peer's port has no GID, and this side needs a GRH (gid_index " +
                 std::to_string(port.gid_index()) + ")");
        ah.is_global = 1;
        ah.grh.dgid = peer.gid;
        ah.grh.sgid_index = uint8_t(port.gid_index());
        ah.grh.hop_limit = 64;
        ah.grh.traffic_class = uint8_t(link.traffic_class);
    }
    return path;
}

} // namespace cmdbench::verbs

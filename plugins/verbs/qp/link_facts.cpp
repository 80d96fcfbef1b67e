// The facts of a connection (see link_facts.hpp).
#include "qp/link_facts.hpp"

#include "qp/local_port.hpp"

#include <cerrno>

namespace cmdbench::verbs {

std::string LinkFacts::text() const {
    std::string out = "connect " + connect + ", device " + device + " port " +
                      std::to_string(port) + " (" + link_layer + "), GID index " +
                      (gid_index < 0 ? std::string("none") : std::to_string(gid_index)) +
                      (gid.empty() ? std::string() : " " + gid) + ", path MTU " +
                      std::to_string(path_mtu) + ", SL " + std::to_string(sl) + ", traffic class " +
                      std::to_string(traffic_class);
    for (const QpFacts &q : qps)
        out += "; QP " + std::to_string(q.index) + ": QPN " + std::to_string(q.local_qpn) +
               " PSN " + std::to_string(q.local_psn) + " -> QPN " + std::to_string(q.remote_qpn) +
               " PSN " + std::to_string(q.remote_psn);
    return out;
}

LinkFacts port_facts(Connect connect, const QpResources &qp, const ibv_ah_attr &ah,
                     uint32_t path_mtu) {
    LinkFacts f;
    f.connect = connect == Connect::Exchange ? "exchange" : "rdma_cm";
    f.device = ibv_get_device_name(qp.context()->device);
    f.port = qp.port();
    ibv_port_attr port{};
    if (ibv_query_port(qp.context(), qp.port(), &port) == 0)
        f.link_layer = port.link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet" : "InfiniBand";
    f.path_mtu = path_mtu;
    f.sl = ah.sl;
    if (ah.is_global) {
        f.gid_index = ah.grh.sgid_index;
        f.traffic_class = ah.grh.traffic_class;
        ibv_gid gid{};
        if (ibv_query_gid(qp.context(), qp.port(), f.gid_index, &gid) == 0) f.gid = gid_text(gid);
    }
    return f;
}

LinkFacts connected_facts(Connect connect, const Conns &conns) {
    LinkFacts f;
    for (const auto &c : conns) {
        ibv_qp_attr attr{};
        ibv_qp_init_attr init{};
        const int mask =
            IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_SQ_PSN;
        if (ibv_query_qp(c->qp(), &attr, mask, &init) != 0) fail_errno("ibv_query_qp", errno);
        if (f.qps.empty()) f = port_facts(connect, *c, attr.ah_attr, mtu_bytes(attr.path_mtu));
        f.qps.push_back({c->index(), c->qp()->qp_num, attr.sq_psn, attr.dest_qp_num, attr.rq_psn});
    }
    return f;
}

QpFacts ud_qp_facts(const QpResources &qp, uint32_t remote_qpn) {
    ibv_qp_attr attr{};
    ibv_qp_init_attr init{};
    if (ibv_query_qp(qp.qp(), &attr, IBV_QP_SQ_PSN, &init) != 0) fail_errno("ibv_query_qp", errno);
    return {qp.index(), qp.qp()->qp_num, attr.sq_psn, remote_qpn, 0};
}

} // namespace cmdbench::verbs

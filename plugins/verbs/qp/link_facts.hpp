// The facts of a connection (LinkFacts), read back from the QPs themselves
// (ibv_query_qp), so they say what took effect, in either connect mode.
#ifndef CMDBENCH_VERBS_LINK_FACTS_HPP
#define CMDBENCH_VERBS_LINK_FACTS_HPP

#include "qp/conn.hpp"

namespace cmdbench::verbs {

// Device, port, link layer, and from `ah` (the QP's address of its peer)
// the GID index, GID, SL and traffic class; `path_mtu` in bytes.
LinkFacts port_facts(Connect connect, const QpResources &qp, const ibv_ah_attr &ah,
                     uint32_t path_mtu);
// RC, UC: all of it from the connected QPs (nothing without QPs).
LinkFacts connected_facts(Connect connect, const Conns &conns);
// A UD QP's numbers: its own, its first send PSN, the peer's QPN.
QpFacts ud_qp_facts(const QpResources &qp, uint32_t remote_qpn);

} // namespace cmdbench::verbs

#endif

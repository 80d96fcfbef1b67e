// What a QP set takes from the run's parameters about the link (LinkSpec:
// how the QPs meet and on which device, port and GID), and what it reports
// back about the connection it made (LinkFacts: the run header's facts).
#ifndef CMDBENCH_VERBS_LINK_SPEC_HPP
#define CMDBENCH_VERBS_LINK_SPEC_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace cmdbench::verbs {

// RdmaCm: every QP its own rdma_cm connection. Exchange: QPs made on the
// device directly and connected by swapping QPN, PSN, LID and GID over the
// control channel (no rdma_cm, so no IP address on the RDMA device needed).
enum class Connect { RdmaCm, Exchange };

struct LinkSpec {
    int qps = 1;
    std::string bind_address; // "" = the server binds the address the client reached
    int port = 0;             // the server's rdma_cm port; 0 = ephemeral
    Connect connect = Connect::RdmaCm;
    std::string device; // "" = rdma_cm's choice / the first with ib_port ACTIVE
    int ib_port = 1;
    int gid_index = -1; // -1 = automatic
    int mtu = 0;        // bytes; 0 = the port's active MTU
    int sl = 0;
    int traffic_class = 0;
};

// One QP as connected: its numbers and first PSNs on both sides.
struct QpFacts {
    uint32_t index = 0;
    uint32_t local_qpn = 0, local_psn = 0;
    uint32_t remote_qpn = 0, remote_psn = 0;
};

// The facts of a run's connection, for the run's header.
struct LinkFacts {
    std::string connect; // "rdma_cm" or "exchange"
    std::string device;
    int port = 0;
    int gid_index = -1;     // -1: none (no GRH) or not known
    std::string gid;        // "fe80:0000:..." or ""
    std::string link_layer; // "InfiniBand", "Ethernet"
    uint32_t path_mtu = 0;  // bytes
    int sl = 0;
    int traffic_class = 0;
    std::vector<QpFacts> qps;

    // One line for the log.
    std::string text() const;
};

} // namespace cmdbench::verbs

#endif

// The meeting of an RC or UD run's QPs (see cm_qp_set.hpp).
#include "qp/cm_qp_set.hpp"

#include "qp/conn.hpp"

#include <cmdbench/rdma-util/rdma_device.hpp>
#include <cstring>
#include <netinet/in.h>

namespace cmdbench::verbs {

CmQpSet::~CmQpSet() {
    if (listener_) rdma_destroy_id(listener_);
}

sockaddr_storage CmQpSet::meet(Run &run, const LinkSpec &link, rdma_port_space ps) {
    const std::string problem = cmdbench::rdma::rdma_device_problem();
    if (!problem.empty()) skip_no_device(problem);
    channel_ = std::make_unique<CmChannel>();
    if (!run.is_client()) {
        listener_ = listen_for_clients(*channel_, run, link, ps);
        sockaddr_storage mine{};
        std::memcpy(&mine, rdma_get_local_addr(listener_), sizeof(sockaddr_in6));
        run.exchange(encode_address(mine), "the server's rdma_cm address");
        return {};
    }
    sockaddr_storage server = decode_address(run.exchange({}, "the server's rdma_cm address"));
    if (is_any_address(server)) {
        const uint16_t port = ntohs(reinterpret_cast<sockaddr_in &>(server).sin_port);
        server = resolve_ip(run.peer_host() ? run.peer_host() : "127.0.0.1", port, false);
    }
    return server;
}

} // namespace cmdbench::verbs

// Connection set-up and teardown of a verbs run (see session.hpp).
#include "session.hpp"

#include <cmdbench/rdma-util/rdma_device.hpp>
#include <cstring>
#include <netinet/in.h>

namespace verbs {

size_t region_for(const Params &p) {
    const size_t largest = size_t(p.largest_size());
    return (std::max<size_t>(largest, 64) + 63) / 64 * 64;
}

Session::Session(Run &run, const Params &p, const ConnSpec &spec) {
    const std::string problem = cmdbench::rdma::rdma_device_problem();
    if (!problem.empty()) skip_no_device(problem);
    channel_ = std::make_unique<CmChannel>();
    if (!run.is_client()) {
        listener_ = listen_for_clients(*channel_, run, p);
        sockaddr_storage mine{};
        std::memcpy(&mine, rdma_get_local_addr(listener_), sizeof(sockaddr_in6));
        run.exchange(encode_address(mine), "the server's rdma_cm address");
        conns_ = accept_clients(*channel_, run, listener_, p, spec);
    } else {
        sockaddr_storage server = decode_address(run.exchange({}, "the server's rdma_cm address"));
        if (is_any_address(server)) {
            const uint16_t port = ntohs(reinterpret_cast<sockaddr_in &>(server).sin_port);
            server = resolve_ip(run.peer_host() ? run.peer_host() : "127.0.0.1", port, false);
        }
        conns_ = connect_to_server(*channel_, run, p, server, spec);
    }
    run.barrier("connected");
}

Session::~Session() {
    if (channel_) close_all(*channel_, conns_);
    if (listener_) rdma_destroy_id(listener_);
}

void Session::finish(Run &run) {
    run.barrier("done");
    close_all(*channel_, conns_);
}

} // namespace verbs

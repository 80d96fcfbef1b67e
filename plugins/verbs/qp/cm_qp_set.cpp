// The meeting of an RC or UD run's QPs (see cm_qp_set.hpp).
#include "qp/cm_qp_set.hpp"

#include "qp/conn.hpp"

#include <cerrno>
#include <cmdbench/rdma-util/device_checks.hpp>
#include <cmdbench/rdma-util/rdma_device.hpp>
#include <cmdbench/rdma-util/rdma_device_address.hpp>
#include <cstring>
#include <netinet/in.h>

namespace cmdbench::verbs {
namespace {

// A bind_address on no RDMA device is a mistake in the scenario, not a
// machine without RDMA: the run fails (never skips), naming the address and
// the devices there are. A wildcard binds nothing in particular: not checked.
void check_bind_address(CmChannel &channel, const LinkSpec &link, rdma_port_space ps) {
    const std::string &address = link.bind_address;
    sockaddr_storage addr = resolve_ip(address, 0, true);
    if (is_any_address(addr)) return;
    rdma_cm_id *id = nullptr;
    if (rdma_create_id(channel.get(), &id, nullptr, ps) != 0) fail_errno("rdma_create_id", errno);
    const bool bound = rdma_bind_addr(id, reinterpret_cast<sockaddr *>(&addr)) == 0;
    const int err = errno;
    const bool on_device = bound && id->verbs;
    std::string port;
    try {
        if (on_device) check_cm_device(id, link, "bind_address " + address);
        // Its port must be able to carry traffic too (both sides check it here).
        if (on_device) port = cmdbench::rdma::port_problem(id->verbs, id->port_num);
    } catch (...) {
        rdma_destroy_id(id);
        throw;
    }
    rdma_destroy_id(id);
    if (!port.empty()) fail("verbs: " + port);
    if (on_device) return;
    fail("verbs: bind_address " + address + " is on no RDMA device" +
         (bound ? std::string() : " (rdma_bind_addr: " + cmdbench::support::errno_text(err) + ")") +
         "; RDMA devices here: " + cmdbench::rdma::rdma_devices_text());
}

} // namespace

CmQpSet::~CmQpSet() {
    if (listener_) rdma_destroy_id(listener_);
}

void CmQpSet::record(Run &run, LinkFacts facts) {
    facts_ = std::move(facts);
    run.log(CMDBENCH_LOG_DEBUG, "verbs: " + facts_.text());
}

sockaddr_storage CmQpSet::meet(Run &run, const LinkSpec &link, rdma_port_space ps) {
    const std::string problem = cmdbench::rdma::rdma_device_problem();
    if (!problem.empty()) skip_no_device(problem);
    channel_ = std::make_unique<CmChannel>();
    if (!link.bind_address.empty()) check_bind_address(*channel_, link, ps);
    if (!run.is_client()) {
        listener_ = listen_for_clients(*channel_, run, link, ps);
        check_port(listener_);
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

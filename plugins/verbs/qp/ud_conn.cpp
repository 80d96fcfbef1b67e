// UD QPs over rdma_cm's UDP port space (see ud_conn.hpp).
#include "qp/ud_conn.hpp"

#include "qp/conn.hpp"
#include "qp/exchange_link.hpp"
#include "qp/link_facts.hpp"

#include <algorithm>
#include <cerrno>
#include <cmdbench/plugin-support/byte_order.hpp>
#include <cstring>
#include <netinet/in.h>
#include <poll.h>

namespace cmdbench::verbs {
namespace {

constexpr uint32_t kMagic = 0x56554450; // "VUDP"
constexpr size_t kPrivateLen = 12;
constexpr int kResolveMs = 2000;

} // namespace

UdConn::UdConn(rdma_cm_id *id, const UdSpec &spec, uint32_t index)
    : QpResources(id, index, spec.region) {
    try {
        if (!id->verbs) fail("verbs: the rdma_cm UD id has no RDMA device");
        ibv_port_attr port{};
        if (ibv_query_port(id->verbs, id->port_num, &port) != 0)
            fail_errno("ibv_query_port", errno);
        mtu_ = mtu_bytes(port.active_mtu);
        // rdma_create_qp on a UDP-port-space id also brings the QP to RTS
        // with the port space's qkey.
        open(spec, IBV_QPT_UD, 2 * region_ + kGrhBytes, IBV_ACCESS_LOCAL_WRITE);
    } catch (...) {
        id_ = nullptr; // the caller still owns the id; ~QpResources frees the rest
        throw;
    }
}

UdConn::UdConn(ibv_context *context, uint8_t port, const UdSpec &spec, uint32_t index, uint32_t mtu)
    : QpResources(context, port, index, spec.region) {
    mtu_ = mtu;
    open(spec, IBV_QPT_UD, 2 * region_ + kGrhBytes, IBV_ACCESS_LOCAL_WRITE);
}

UdConn::~UdConn() {
    if (ah_) ibv_destroy_ah(ah_);
}

std::vector<uint8_t> UdConn::private_data() const {
    ibv_qp_attr attr{};
    ibv_qp_init_attr init{};
    if (ibv_query_qp(qp_, &attr, IBV_QP_QKEY, &init) != 0) fail_errno("ibv_query_qp", errno);
    std::vector<uint8_t> out;
    cmdbench::support::append_be(out, kMagic, 4);
    cmdbench::support::append_be(out, index_, 4);
    cmdbench::support::append_be(out, attr.qkey, 4);
    return out;
}

void UdConn::set_peer(const rdma_ud_param &ud) {
    set_peer(ud.ah_attr, ud.qp_num, ud.qkey);
}

void UdConn::set_peer(ibv_ah_attr attr, uint32_t qpn, uint32_t qkey) {
    ah_ = ibv_create_ah(pd_, &attr);
    if (!ah_) fail_errno("ibv_create_ah (the peer's UD QP)", errno);
    ah_attr_ = attr;
    remote_qpn_ = qpn;
    remote_qkey_ = qkey;
}

// The server's way back to the client: the SIDR request brings no address
// vector of the client's QP, only the CM's path to it. ibv_create_ah_from_wc
// builds the return path from the received packet itself (its GRH: GIDs,
// RoCE v1 or v2, hop limit) and the completion's source QP, which is right on
// InfiniBand and RoCE alike without rebuilding an address vector by hand.
// The server only sends after it received, so the first ping is enough.
void UdConn::learn_peer(const ibv_wc &wc) {
    if (ah_) return;
    ah_ = ibv_create_ah_from_wc(pd_, const_cast<ibv_wc *>(&wc),
                                reinterpret_cast<ibv_grh *>(buf_ + region_), port_);
    if (!ah_) fail_errno("ibv_create_ah_from_wc (the client's UD QP)", errno);
    remote_qpn_ = wc.src_qp;
}

void UdConn::post_send(uint32_t len, bool signaled, uint64_t wr_id, uint64_t list) {
    if (!ah_) fail("verbs: UD QP " + std::to_string(index_) + " has no address of its peer yet");
    ibv_sge sge = sge_at(0, len);
    ibv_send_wr wr = send_wr(sge, IBV_WR_SEND, signaled, wr_id);
    if (len <= inline_max_) wr.send_flags |= IBV_SEND_INLINE;
    wr.wr.ud.ah = ah_;
    wr.wr.ud.remote_qpn = remote_qpn_;
    wr.wr.ud.remote_qkey = remote_qkey_;
    if (list > 1) return submit_list(wr, list, "ibv_post_send (UD)");
    submit(wr, "ibv_post_send (UD)");
}

void UdConn::post_recv(uint64_t wr_id) {
    // Every receive shares one buffer: the GRH, then the payload.
    submit_recv(sge_at(region_, uint32_t(region_ + kGrhBytes)), wr_id, "ibv_post_recv (UD)");
}

UdQpSet::UdQpSet(Run &run, const LinkSpec &link, const UdSpec &spec) {
    if (link.connect == Connect::Exchange) {
        connect_by_exchange(run, link, spec);
    } else {
        const sockaddr_storage server = meet(run, link, RDMA_PS_UDP);
        if (!run.is_client())
            accept(run, link, spec);
        else
            connect(run, link, server, spec);
    }
    describe(run, link.connect);
    run.barrier("connected");
}

void UdQpSet::connect_by_exchange(Run &run, const LinkSpec &link, const UdSpec &spec) {
    local_ = std::make_unique<LocalPort>(link);
    WireLink ours;
    ours.qp_type = IBV_QPT_UD;
    ours.lid = local_->lid();
    ours.gid = local_->gid();
    ours.mtu = mtu_bytes(local_->mtu());
    for (int i = 0; i < link.qps; ++i) {
        conns_.push_back(std::make_unique<UdConn>(local_->context(), local_->port(), spec,
                                                  uint32_t(i), ours.mtu));
        UdConn &c = *conns_.back();
        const uint32_t psn = random_psn();
        qp_to_init(c.qp(), *local_, 0);
        qp_to_rts(c.qp(), PathSpec{}, nullptr, psn);
        ours.qps.push_back({c.qp()->qp_num, psn, {uint32_t(i), 0, 0, 0, 0}});
    }
    const WireLink peer = swap_links(run, ours);
    const PathSpec path = path_to(*local_, link, peer);
    for (size_t i = 0; i < conns_.size(); ++i) {
        conns_[i]->set_mtu(mtu_bytes(path.mtu));
        conns_[i]->set_peer(path.ah, peer.qps[i].qpn, kExchangeQkey);
    }
}

void UdQpSet::describe(Run &run, Connect connect) {
    if (conns_.empty()) return;
    const UdConn &first = *conns_.front();
    LinkFacts f = port_facts(connect, first, first.ah_attr(), mtu());
    for (const auto &c : conns_)
        f.qps.push_back(ud_qp_facts(*c, c->remote_qpn()));
    record(run, std::move(f));
}

UdQpSet::~UdQpSet() {
    conns_.clear();
    if (channel_) channel_->drain();
}

void UdQpSet::finish(Run &run) {
    run.barrier("done");
    conns_.clear(); // UD has no connection to take down
    if (channel_) channel_->drain();
}

uint32_t UdQpSet::mtu() const {
    uint32_t mtu = 0;
    for (const auto &c : conns_)
        mtu = mtu == 0 ? c->mtu() : std::min(mtu, c->mtu());
    return mtu;
}

void UdQpSet::connect(Run &run, const LinkSpec &link, const sockaddr_storage &server,
                      const UdSpec &spec) {
    sockaddr_storage source{};
    const bool bind = !link.bind_address.empty();
    if (bind) source = resolve_ip(link.bind_address, 0, true);
    sockaddr_storage target = server;
    const std::string to = address_text(target);
    Stopper &stop = run.stopper();
    for (int i = 0; i < link.qps; ++i) {
        rdma_cm_id *id = nullptr;
        if (rdma_create_id(channel_->get(), &id, nullptr, RDMA_PS_UDP) != 0)
            fail_errno("rdma_create_id (UDP port space)", errno);
        std::unique_ptr<UdConn> conn;
        try {
            if (rdma_resolve_addr(id, bind ? reinterpret_cast<sockaddr *>(&source) : nullptr,
                                  reinterpret_cast<sockaddr *>(&target), kResolveMs) != 0) {
                const int err = errno;
                const std::string what =
                    "rdma_resolve_addr " + to + ": " + cmdbench::support::errno_text(err);
                if (err == ENODEV || err == EADDRNOTAVAIL || err == ENOENT) skip_no_device(what);
                fail(what);
            }
            channel_->expect(RDMA_CM_EVENT_ADDR_RESOLVED, id, stop, ("resolving " + to).c_str());
            check_port(id);
            check_cm_device(id, link, "the route to " + to);
            set_cm_tos(id, link);
            if (rdma_resolve_route(id, kResolveMs) != 0)
                fail_errno("rdma_resolve_route " + to, errno);
            channel_->expect(RDMA_CM_EVENT_ROUTE_RESOLVED, id, stop, ("route to " + to).c_str());
            conn = std::make_unique<UdConn>(id, spec, uint32_t(i));
        } catch (...) {
            if (!conn) rdma_destroy_id(id);
            throw;
        }
        const std::vector<uint8_t> data = conn->private_data();
        rdma_conn_param param{};
        param.private_data = data.data();
        param.private_data_len = uint8_t(data.size());
        UdConn &c = *conn;
        conns_.push_back(std::move(conn));
        if (rdma_connect(id, &param) != 0) fail_errno("rdma_connect (UD) " + to, errno);
        const CmEvent e = channel_->expect(RDMA_CM_EVENT_ESTABLISHED, id, stop,
                                           ("UD address of QP " + std::to_string(i)).c_str());
        c.set_peer(e.ud);
    }
}

void UdQpSet::accept(Run &run, const LinkSpec &link, const UdSpec &spec) {
    Stopper &stop = run.stopper();
    conns_.resize(size_t(link.qps));
    // A SIDR exchange has no ESTABLISHED at the server: the accept is all.
    for (int accepted = 0; accepted < link.qps; ++accepted) {
        const CmEvent e = channel_->next(stop, "waiting for the client's UD QPs");
        if (e.type != RDMA_CM_EVENT_CONNECT_REQUEST)
            fail(std::string("verbs: while accepting UD QPs: unexpected rdma_cm event ") +
                 rdma_event_str(e.type) + " (status " + std::to_string(e.status) + ")");
        std::unique_ptr<UdConn> conn;
        try {
            const uint8_t *d = e.private_data.data();
            if (e.private_data.size() < kPrivateLen || cmdbench::support::take_be(d, 4) != kMagic)
                fail("verbs: the UD connect request is not from a verbs-lat / verbs-bw peer "
                     "with qp_type = \"ud\"");
            const auto index = uint32_t(cmdbench::support::take_be(d, 4));
            if (index >= uint32_t(link.qps) || conns_[index])
                fail("verbs: the client sent UD QP index " + std::to_string(index) +
                     " twice or out of [0, qps)");
            const auto qkey = uint32_t(cmdbench::support::take_be(d, 4));
            check_cm_device(e.id, link, "the client's UD request");
            conn = std::make_unique<UdConn>(e.id, spec, index);
            conn->set_peer_qkey(qkey);
        } catch (...) {
            rdma_reject(e.id, nullptr, 0);
            if (!conn) rdma_destroy_id(e.id);
            throw;
        }
        const std::vector<uint8_t> data = conn->private_data();
        rdma_conn_param param{};
        param.private_data = data.data();
        param.private_data_len = uint8_t(data.size());
        const uint32_t index = conn->index();
        conns_[index] = std::move(conn);
        if (rdma_accept(e.id, &param) != 0) fail_errno("rdma_accept (UD)", errno);
    }
}

std::vector<int64_t> ud_sizes(std::vector<int64_t> sizes, bool mtu_by_default, uint32_t mtu,
                              const char *test) {
    if (mtu_by_default) sizes = {int64_t(mtu)};
    for (int64_t s : sizes)
        if (s > int64_t(mtu))
            fail(std::string(test) + ": sizes: " + std::to_string(s) +
                 " bytes is more than the path MTU, " + std::to_string(mtu) +
                 " bytes, and a UD message is one packet: with qp_type = \"ud\" sizes must be "
                 "in [1, " +
                 std::to_string(mtu) + "]");
    return sizes;
}

} // namespace cmdbench::verbs

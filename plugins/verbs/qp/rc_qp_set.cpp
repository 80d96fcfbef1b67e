// Connection set-up and teardown of an RC or UC run (see rc_qp_set.hpp).
#include "qp/rc_qp_set.hpp"

#include "qp/exchange_link.hpp"
#include "qp/link_facts.hpp"

namespace cmdbench::verbs {

RcQpSet::RcQpSet(Run &run, const LinkSpec &link, const ConnSpec &spec) {
    if (link.connect == Connect::Exchange) {
        connect_by_exchange(run, link, spec);
    } else {
        const sockaddr_storage server = meet(run, link, RDMA_PS_TCP);
        if (!run.is_client())
            conns_ = accept_clients(*channel_, run, link, spec);
        else
            conns_ = connect_to_server(*channel_, run, link, server, spec);
    }
    record(run, connected_facts(link.connect, conns_));
    run.barrier("connected");
}

void RcQpSet::connect_by_exchange(Run &run, const LinkSpec &link, const ConnSpec &spec) {
    local_ = std::make_unique<LocalPort>(link);
    WireLink ours;
    ours.qp_type = spec.type;
    ours.lid = local_->lid();
    ours.gid = local_->gid();
    ours.mtu = mtu_bytes(local_->mtu());
    ours.rd_atomic = local_->rd_atomic();
    for (int i = 0; i < link.qps; ++i) {
        conns_.push_back(
            std::make_unique<Conn>(local_->context(), local_->port(), spec, uint32_t(i)));
        Conn &c = *conns_.back();
        qp_to_init(c.qp(), *local_, conn_access(spec));
        ours.qps.push_back({c.qp()->qp_num, random_psn(), c.local_buffer()});
    }
    const WireLink peer = swap_links(run, ours);
    const PathSpec path = path_to(*local_, link, peer);
    for (size_t i = 0; i < conns_.size(); ++i) {
        conns_[i]->set_remote(peer.qps[i].buffer);
        qp_to_rts(conns_[i]->qp(), path, &peer.qps[i], ours.qps[i].psn);
    }
}

RcQpSet::~RcQpSet() {
    if (channel_)
        close_all(*channel_, conns_);
    else
        conns_.clear(); // before the device they were made on
}

void RcQpSet::finish(Run &run) {
    run.barrier("done");
    if (channel_)
        close_all(*channel_, conns_);
    else
        conns_.clear();
}

} // namespace cmdbench::verbs

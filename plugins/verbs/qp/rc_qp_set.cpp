// Connection set-up and teardown of an RC run (see rc_qp_set.hpp).
#include "qp/rc_qp_set.hpp"

namespace cmdbench::verbs {

RcQpSet::RcQpSet(Run &run, const LinkSpec &link, const ConnSpec &spec) {
    const sockaddr_storage server = meet(run, link, RDMA_PS_TCP);
    if (!run.is_client())
        conns_ = accept_clients(*channel_, run, link, spec);
    else
        conns_ = connect_to_server(*channel_, run, link, server, spec);
    run.barrier("connected");
}

RcQpSet::~RcQpSet() {
    if (channel_) close_all(*channel_, conns_);
}

void RcQpSet::finish(Run &run) {
    run.barrier("done");
    close_all(*channel_, conns_);
}

} // namespace cmdbench::verbs

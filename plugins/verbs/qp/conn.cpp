// RC QPs over rdma_cm (see conn.hpp).
#include "qp/conn.hpp"

#include <algorithm>
#include <cerrno>
#include <cmdbench/plugin-support/byte_order.hpp>
#include <cmdbench/rdma-util/net_address.hpp>
#include <cmdbench/rdma-util/rdma_device_address.hpp>

namespace cmdbench::verbs {
namespace {

constexpr uint32_t kMagic = 0x56524253; // "VRBS"
constexpr size_t kPrivateLen = 32;
constexpr int kResolveMs = 2000;

// Big-endian fields, appended to the message and taken from it in order.
constexpr auto put = cmdbench::support::append_be;
constexpr auto get = cmdbench::support::take_be;

bool no_device_errno(int err) {
    return err == ENODEV || err == EADDRNOTAVAIL || err == ENOENT;
}

std::string devices_here() {
    return "RDMA devices here: " + cmdbench::rdma::rdma_devices_text();
}

} // namespace

int conn_access(const ConnSpec &spec) {
    return IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
           (spec.type == IBV_QPT_RC ? IBV_ACCESS_REMOTE_READ : 0) |
           (spec.atomics ? IBV_ACCESS_REMOTE_ATOMIC : 0);
}

Conn::Conn(rdma_cm_id *id, const ConnSpec &spec, uint32_t index)
    : QpResources(id, index, spec.region) {
    try {
        if (!id->verbs) fail("verbs: the rdma_cm connection has no RDMA device");
        make(spec);
    } catch (...) {
        id_ = nullptr; // the caller still owns the id; ~QpResources frees the rest
        throw;
    }
}

Conn::Conn(ibv_context *context, uint8_t port, const ConnSpec &spec, uint32_t index)
    : QpResources(context, port, index, spec.region) {
    make(spec);
}

void Conn::make(const ConnSpec &spec) {
    ibv_device_attr attr{};
    if (ibv_query_device(context_, &attr) != 0) fail_errno("ibv_query_device", errno);
    rd_atomic_ = uint8_t(std::min({attr.max_qp_rd_atom, attr.max_qp_init_rd_atom, 255}));
    if (spec.atomics && attr.atomic_cap == IBV_ATOMIC_NONE)
        throw RunError(CMDBENCH_ERR_SKIP, std::string("needs RDMA atomics: device ") +
                                              ibv_get_device_name(context_->device) +
                                              " has none (atomic_cap = IBV_ATOMIC_NONE)");
    open(spec, spec.type, 2 * region_, conn_access(spec));
}

RemoteBuffer Conn::local_buffer() const {
    RemoteBuffer b;
    b.index = index_;
    b.rkey = mr_->rkey;
    b.region = uint32_t(region_);
    b.send_addr = reinterpret_cast<uintptr_t>(send_buf());
    b.recv_addr = reinterpret_cast<uintptr_t>(recv_buf());
    return b;
}

std::vector<uint8_t> Conn::private_data() const {
    std::vector<uint8_t> out;
    put(out, kMagic, 4);
    put(out, index_, 4);
    put(out, mr_->rkey, 4);
    put(out, region_, 4);
    put(out, reinterpret_cast<uintptr_t>(send_buf()), 8);
    put(out, reinterpret_cast<uintptr_t>(recv_buf()), 8);
    return out;
}

RemoteBuffer decode_private_data(const std::vector<uint8_t> &data, const char *what) {
    // IB pads the private data; only our first bytes matter.
    if (data.size() < kPrivateLen)
        fail(std::string(what) + ": the peer's connection carries no buffer description (" +
             std::to_string(data.size()) + " bytes of private data)");
    const uint8_t *p = data.data();
    if (get(p, 4) != kMagic)
        fail(std::string(what) + ": the peer is not a verbs-lat / verbs-bw peer");
    RemoteBuffer r;
    r.index = uint32_t(get(p, 4));
    r.rkey = uint32_t(get(p, 4));
    r.region = uint32_t(get(p, 4));
    r.send_addr = get(p, 8);
    r.recv_addr = get(p, 8);
    return r;
}

rdma_conn_param Conn::conn_param(const std::vector<uint8_t> &data) const {
    rdma_conn_param param{};
    param.private_data = data.data();
    param.private_data_len = uint8_t(data.size());
    param.responder_resources = rd_atomic_;
    param.initiator_depth = rd_atomic_;
    param.retry_count = 7;
    param.rnr_retry_count = 7; // infinite: a busy receiver slows SEND down, never fails it
    return param;
}

void Conn::post(ibv_wr_opcode opcode, uint32_t len, bool signaled, uint64_t wr_id, uint64_t list) {
    const bool read = opcode == IBV_WR_RDMA_READ;
    ibv_sge sge = sge_at(read ? region_ : 0, len);
    ibv_send_wr wr = send_wr(sge, opcode, signaled, wr_id);
    if (!read && len <= inline_max_) wr.send_flags |= IBV_SEND_INLINE;
    if (opcode != IBV_WR_SEND) {
        wr.wr.rdma.remote_addr = read ? remote_.send_addr : remote_.recv_addr;
        wr.wr.rdma.rkey = remote_.rkey;
    }
    if (list > 1) return submit_list(wr, list, "ibv_post_send");
    submit(wr, "ibv_post_send");
}

void Conn::prepare_read(OneSidedWr &op, uint32_t len) const {
    op.sge = sge_at(region_, len);
    op.wr = send_wr(op.sge, IBV_WR_RDMA_READ, true, 0);
    op.wr.wr.rdma.remote_addr = remote_.send_addr;
    op.wr.wr.rdma.rkey = remote_.rkey;
}

void Conn::prepare_atomic(OneSidedWr &op, ibv_wr_opcode opcode) const {
    op.sge = sge_at(region_, uint32_t(kAtomicSize));
    op.wr = send_wr(op.sge, opcode, true, 0);
    op.wr.wr.atomic.remote_addr = remote_.send_addr;
    op.wr.wr.atomic.rkey = remote_.rkey;
}

void Conn::post_atomic(ibv_wr_opcode opcode, uint64_t compare_add, uint64_t swap, bool signaled,
                       uint64_t wr_id, uint64_t list) {
    OneSidedWr op;
    prepare_atomic(op, opcode);
    op.wr.wr_id = wr_id;
    op.wr.send_flags = signaled ? IBV_SEND_SIGNALED : 0;
    op.wr.wr.atomic.compare_add = compare_add;
    op.wr.wr.atomic.swap = swap;
    if (list > 1) return submit_list(op.wr, list, "ibv_post_send (atomic)");
    submit(op.wr, "ibv_post_send (atomic)");
}

void Conn::post_recv(uint64_t wr_id) {
    submit_recv(sge_at(region_, uint32_t(region_)), wr_id, "ibv_post_recv");
}

int Conn::shorten_rnr_wait() {
    // The IB encoding of the RNR wait: 0 is the longest (655.36 ms), 1..31
    // grow from 0.01 ms; 12 is 0.64 ms, what perftest sets on QPs it
    // connects itself. rdma_cm leaves 0 on a responder, so one receive
    // posted late stalls the sender for 0.66 s.
    constexpr uint8_t kRnrWait = 12;
    ibv_qp_attr attr{};
    ibv_qp_init_attr init{};
    if (ibv_query_qp(qp_, &attr, IBV_QP_STATE | IBV_QP_MIN_RNR_TIMER, &init) != 0) return -1;
    const int found = attr.min_rnr_timer;
    if (found != 0 && found <= kRnrWait) return found;
    ibv_qp_attr change{};
    change.qp_state = attr.qp_state;
    change.min_rnr_timer = kRnrWait;
    if (ibv_modify_qp(qp_, &change, IBV_QP_STATE | IBV_QP_MIN_RNR_TIMER) != 0) return -1;
    return found;
}

rdma_cm_id *listen_for_clients(CmChannel &channel, const Run &run, const LinkSpec &link,
                               rdma_port_space ps) {
    std::string where = link.bind_address;
    if (where.empty() && run.peer_host()) where = run.peer_host();
    // A local run meets on loopback, where no RDMA device is: use the address
    // of the device's interface (the client connects to what we announce).
    if (link.bind_address.empty() && cmdbench::rdma::is_loopback_host(where)) {
        const std::string device_address = cmdbench::rdma::rdma_device_address().address;
        if (!device_address.empty()) {
            run.log(CMDBENCH_LOG_INFO, "verbs: listening on " + device_address +
                                           ", the RDMA device's interface, not " + where);
            where = device_address;
        }
    }
    sockaddr_storage addr = resolve_ip(where, uint16_t(link.port), true);
    rdma_cm_id *id = nullptr;
    if (rdma_create_id(channel.get(), &id, nullptr, ps) != 0) fail_errno("rdma_create_id", errno);
    if (rdma_bind_addr(id, reinterpret_cast<sockaddr *>(&addr)) != 0) {
        const int err = errno;
        rdma_destroy_id(id);
        const std::string what =
            "rdma_bind_addr " + address_text(addr) + ": " + cmdbench::support::errno_text(err);
        if (no_device_errno(err))
            skip_no_device(what + " (not an address of an RDMA device; set bind_address to one: " +
                           devices_here() + ")");
        fail(what);
    }
    if (!is_any_address(addr) && !id->verbs) {
        rdma_destroy_id(id);
        skip_no_device(
            address_text(addr) +
            " is not an address of an RDMA device; set bind_address to one: " + devices_here());
    }
    try {
        set_cm_tos(id, link);
    } catch (...) {
        rdma_destroy_id(id);
        throw;
    }
    if (rdma_listen(id, link.qps) != 0) {
        const int err = errno;
        rdma_destroy_id(id);
        fail_errno("rdma_listen " + address_text(addr), err);
    }
    return id;
}

Conns connect_to_server(CmChannel &channel, const Run &run, const LinkSpec &link,
                        const sockaddr_storage &server, const ConnSpec &spec) {
    sockaddr_storage source{};
    const bool bind = !link.bind_address.empty();
    if (bind) source = resolve_ip(link.bind_address, 0, true);
    sockaddr_storage target = server;
    Stopper &stop = const_cast<Run &>(run).stopper();
    Conns conns;
    for (int i = 0; i < link.qps; ++i) {
        rdma_cm_id *id = nullptr;
        if (rdma_create_id(channel.get(), &id, nullptr, RDMA_PS_TCP) != 0)
            fail_errno("rdma_create_id", errno);
        std::unique_ptr<Conn> conn;
        try {
            const std::string to = address_text(target);
            if (rdma_resolve_addr(id, bind ? reinterpret_cast<sockaddr *>(&source) : nullptr,
                                  reinterpret_cast<sockaddr *>(&target), kResolveMs) != 0) {
                const int err = errno;
                const std::string what =
                    "rdma_resolve_addr " + to + ": " + cmdbench::support::errno_text(err);
                if (no_device_errno(err)) skip_no_device(what);
                fail(what);
            }
            channel.expect(RDMA_CM_EVENT_ADDR_RESOLVED, id, stop, ("resolving " + to).c_str());
            check_port(id);
            check_cm_device(id, link, "the route to " + to);
            set_cm_tos(id, link);
            if (rdma_resolve_route(id, kResolveMs) != 0)
                fail_errno("rdma_resolve_route " + to, errno);
            channel.expect(RDMA_CM_EVENT_ROUTE_RESOLVED, id, stop, ("route to " + to).c_str());
            conn = std::make_unique<Conn>(id, spec, uint32_t(i));
        } catch (...) {
            if (!conn) rdma_destroy_id(id);
            throw;
        }
        const std::vector<uint8_t> data = conn->private_data();
        rdma_conn_param param = conn->conn_param(data);
        if (rdma_connect(id, &param) != 0)
            fail_errno("rdma_connect " + address_text(target), errno);
        Conn &c = *conn;
        conns.push_back(std::move(conn));
        const CmEvent e = channel.expect(RDMA_CM_EVENT_ESTABLISHED, id, stop,
                                         ("connecting QP " + std::to_string(i)).c_str());
        c.set_remote(decode_private_data(e.private_data, "rdma_connect"));
    }
    return conns;
}

Conns accept_clients(CmChannel &channel, const Run &run, const LinkSpec &link,
                     const ConnSpec &spec) {
    Stopper &stop = const_cast<Run &>(run).stopper();
    Conns conns(size_t(link.qps));
    int established = 0;
    while (established < link.qps) {
        const CmEvent e = channel.next(stop, "waiting for the client's QPs");
        if (e.type == RDMA_CM_EVENT_ESTABLISHED) {
            ++established;
            continue;
        }
        if (e.type != RDMA_CM_EVENT_CONNECT_REQUEST)
            fail(std::string("verbs: while accepting QPs: unexpected rdma_cm event ") +
                 rdma_event_str(e.type) + " (status " + std::to_string(e.status) + ")");
        std::unique_ptr<Conn> conn;
        try {
            const RemoteBuffer remote = decode_private_data(e.private_data, "connect request");
            if (remote.index >= uint32_t(link.qps) || conns[remote.index])
                fail("verbs: the client sent QP index " + std::to_string(remote.index) +
                     " twice or out of [0, qps)");
            check_cm_device(e.id, link, "the client's connection");
            conn = std::make_unique<Conn>(e.id, spec, remote.index);
            conn->set_remote(remote);
        } catch (...) {
            rdma_reject(e.id, nullptr, 0);
            if (!conn) rdma_destroy_id(e.id);
            throw;
        }
        const std::vector<uint8_t> data = conn->private_data();
        rdma_conn_param param = conn->conn_param(data);
        const uint32_t index = conn->index();
        conns[index] = std::move(conn);
        if (rdma_accept(e.id, &param) != 0) fail_errno("rdma_accept", errno);
    }
    return conns;
}

void close_all(CmChannel &channel, Conns &conns) {
    for (auto &c : conns)
        if (c && c->id()) rdma_disconnect(c->id());
    channel.drain();
    conns.clear();
}

} // namespace cmdbench::verbs

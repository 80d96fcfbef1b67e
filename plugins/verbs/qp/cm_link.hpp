// The rdma_cm event channel with bounded waits, and the addresses the peers
// swap over the control channel to meet.
#ifndef CMDBENCH_VERBS_CM_LINK_HPP
#define CMDBENCH_VERBS_CM_LINK_HPP

#include "qp/link_spec.hpp"
#include "run/verbs_run.hpp"

#include <rdma/rdma_cma.h>
#include <string>
#include <sys/socket.h>
#include <vector>

namespace cmdbench::verbs {

// One rdma_cm event, copied out and acknowledged already.
struct CmEvent {
    rdma_cm_event_type type;
    rdma_cm_id *id;
    int status;
    std::vector<uint8_t> private_data;
    // UD (RDMA_PS_UDP) ESTABLISHED: the server QP's address, number and qkey
    // (private_data pointer cleared: it dies with the event).
    rdma_ud_param ud{};
};

class CmChannel {
  public:
    // Skips the run (needs an RDMA device) when rdma_cm is not there at all.
    CmChannel();
    ~CmChannel();
    CmChannel(const CmChannel &) = delete;
    CmChannel &operator=(const CmChannel &) = delete;

    rdma_event_channel *get() const { return channel_; }
    // The next event, waiting at most until the run's deadline.
    CmEvent next(const Stopper &stop, const char *what);
    // The next event, which must be `want` (for `id` when given).
    CmEvent expect(rdma_cm_event_type want, rdma_cm_id *id, const Stopper &stop, const char *what);
    // Acknowledges whatever is queued, without waiting.
    void drain();

  private:
    rdma_event_channel *channel_ = nullptr;
};

// With connect = "rdma_cm" rdma_cm picks the device and port from the
// address: a `device` (or an `ib_port` other than 1) that is not what it
// picked for `id` fails the run, naming both and `where` (what chose it).
void check_cm_device(rdma_cm_id *id, const LinkSpec &link, const std::string &where);
// traffic_class as the id's type of service (RDMA_OPTION_ID_TOS), before
// its route is resolved (or it listens); nothing when it is 0.
void set_cm_tos(rdma_cm_id *id, const LinkSpec &link);
// Fails the run when the port `id` is bound or resolved to is not ACTIVE,
// naming device, port and state: before anything waits on a dead link.
void check_port(const rdma_cm_id *id);

// host:port as a socket address (numeric or a name).
sockaddr_storage resolve_ip(const std::string &host, uint16_t port, bool passive);
bool is_any_address(const sockaddr_storage &addr);
void set_port(sockaddr_storage &addr, uint16_t port);
std::string address_text(const sockaddr_storage &addr);

// The server's listening address, as sent over the control channel.
std::vector<uint8_t> encode_address(const sockaddr_storage &addr);
sockaddr_storage decode_address(const std::vector<uint8_t> &bytes);

} // namespace cmdbench::verbs

#endif

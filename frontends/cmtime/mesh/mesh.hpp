// The multi-peer control plane of cmtime's controller/mesh mode, on the host's control channel
// (typed, length-prefixed, versioned messages; never raw structs):
//  - election: the first peer that can bind the controller address is the
//    controller; EADDRNOTAVAIL / EADDRINUSE make a leaf;
//  - the controller accepts P-1 leaves, checks that each runs with the same
//    terms (version, -P, -c ...) and gives each its index (accept order);
//  - barriers, gather to the controller and all-gather across the mesh;
//  - every wait is bounded; a failed or vanished peer is reported to every
//    survivor as an error naming that peer.
// Under a launcher (mpirun, srun --mpi=pmix) join_job() replaces the
// election: rank 0 is the controller and the peer index is the rank.
#pragma once
#include "cmdbench/control/control.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cmdbench {

class Job;

struct MeshOptions {
    std::string host;              // controller address (-C)
    std::string port;              // controller port (-p)
    int peers = 2;                 // -P, controller included
    std::string terms;             // "key=value key=value": must match on every peer
    int timeout_ms = 300000;       // bound of every wait
    int connect_window_ms = 30000; // how long a leaf retries reaching the controller
    // Called right after the election, before any peer is waited for.
    std::function<void(bool controller)> on_elected;
};

struct MeshError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Mesh {
  public:
    // Elects, connects and checks the terms; throws MeshError.
    static std::unique_ptr<Mesh> join(const MeshOptions &options);
    // The same mesh wired through a launcher's job (mesh_job.cpp): rank 0
    // listens on an ephemeral port of options.host and publishes it with
    // Job::allgather; the other ranks connect. Index = rank; options.port
    // and options.peers are not used (the job's size is). A rank whose
    // `local_failure` is not empty (it cannot take part: no device, no
    // address...) still joins the allgather, so that every rank ends with
    // an error naming it instead of waiting for it. Throws MeshError.
    static std::unique_ptr<Mesh> join_job(Job &job, const MeshOptions &options,
                                          const std::string &local_failure = "");
    ~Mesh();

    bool controller() const { return controller_; }
    int index() const { return index_; } // controller 0, leaves 1..P-1 in accept order
    int peers() const { return peers_; }
    // "peer 2 (10.0.0.3:41000)" / "the controller (10.0.0.1:7471)"; in a
    // job "rank 2 on node3" / "rank 0 on node1 (the controller)".
    std::string peer_label(int index) const;
    // In a job: every rank's node and the address it gave (its -b, -B or
    // default), by rank; empty otherwise.
    const std::vector<std::string> &nodes() const { return nodes_; }
    const std::vector<std::string> &addresses() const { return addresses_; }

    // Does not wait: throws MeshError when a peer's control connection
    // closed (it ended) or an error from a peer is waiting, so a wait on the
    // data plane (accepts from a client that died) ends at once, naming it.
    // At most one look every 50 ms; data waiting otherwise is left alone.
    void check_peers();

    // Returns once every peer reached the barrier `name`.
    void barrier(const std::string &name);
    // Controller: every peer's bytes in index order; leaves: empty.
    std::vector<std::vector<uint8_t>> gather(const std::vector<uint8_t> &mine);
    // Every peer's bytes in index order, on every peer.
    std::vector<std::vector<uint8_t>> allgather(const std::vector<uint8_t> &mine);
    // Tells the other peers that this one failed (best effort, no wait).
    void abort(const std::string &why);
    // This peer failed with `why` (a local error, not a MeshError): tells
    // the others and returns what to report. The controller's verdict
    // decides, since a leaf's error may only be a consequence of another
    // peer's loss (a server that left once it heard of it refuses our
    // connects): the controller names itself to everyone; a leaf sends
    // `why` and waits up to ms for the controller's verdict, the first
    // failure it saw. `why` as is when the verdict is this leaf's own
    // failure, or when none comes.
    std::string failure_verdict(const std::string &why, int ms);
    // After a failure has been reported, before the process exits: a
    // launcher ends the whole job once one rank exits with an error, so the
    // ranks leave in order. A leaf says Bye and waits for the controller to
    // leave; the controller waits for every leaf's Bye (or end). At most ms.
    void farewell(int ms);

  private:
    Mesh() = default;
    // The two wire-ups' common steps (mesh.cpp). A leaf: reach the
    // controller at host:port, retrying until window_ms has passed, else
    // MeshError "cannot reach WHO within N s (last error); HINT".
    void reach_controller(const std::string &host, uint16_t port, int attempt_ms, int window_ms,
                          const std::string &who, const std::string &hint);
    // A leaf, once connected: Hello, then `intro` (an Exchange payload), and
    // the controller's answer: our index and the number of peers.
    std::pair<int, int> introduce(std::vector<uint8_t> intro);
    // The controller, once every leaf is in: each its index and the number
    // of peers.
    void place_leaves();
    // join_job's controller: accepts every other rank (mesh_job.cpp).
    void accept_ranks(control::Listener &listener, const MeshOptions &o);
    control::Message recv_from(int index, control::MsgType want, const std::string &what);
    void send_to(int index, const control::Message &m);
    void send_blob(int index, const std::vector<uint8_t> &bytes);
    std::vector<uint8_t> recv_blob(int index, const std::string &what);
    [[noreturn]] void fail_everyone(const std::string &why);

    bool controller_ = false;
    int index_ = 0;
    int peers_ = 0;
    int timeout_ms_ = 0;
    std::string controller_name_;
    // Controller: one channel per leaf (slot i-1 = peer i); leaf: the
    // controller's channel in slot 0.
    std::vector<std::unique_ptr<control::Channel>> links_;
    std::vector<std::string> names_; // peer addresses, by index (controller only)
    // In a job, by rank (see join_job).
    std::vector<std::string> nodes_, addresses_;
    int64_t last_check_ms_ = 0;
};

} // namespace cmdbench

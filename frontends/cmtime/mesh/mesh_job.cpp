// The mesh wired through a launcher's job (see Mesh::join_job in mesh.hpp):
// no election and no well-known port. Rank 0 listens on an ephemeral port of
// its address; one Job::allgather tells every rank where that is, which node
// each rank runs on (for messages) and whether any rank cannot take part.
#include "cmdbench/control/host_port.hpp"
#include "cmdbench/host/matrix/job.hpp"
#include "mesh.hpp"
#include "mesh_detail.hpp"

#include <optional>
#include <sstream>

namespace cmdbench {
namespace {

using namespace mesh_detail;

constexpr const char *kWireKey = "cmtime.mesh"; // the job adds "cmdbench."

// What one rank publishes: one line per field (PMIx strings end at a NUL,
// so no binary encoding).
struct RankCard {
    std::string node, address, port, failure;
};

std::string one_line(std::string s) {
    for (char &c : s)
        if (c == '\n' || c == '\r') c = ' ';
    return s;
}

std::string encode(const RankCard &c) {
    return one_line(c.node) + "\n" + one_line(c.address) + "\n" + one_line(c.port) + "\n" +
           one_line(c.failure);
}

RankCard decode(const std::string &text, int rank) {
    RankCard c;
    std::istringstream in(text);
    if (!std::getline(in, c.node) || !std::getline(in, c.address) || !std::getline(in, c.port))
        throw MeshError("rank " + std::to_string(rank) +
                        " published a malformed mesh record (another cmdbench version?)");
    std::getline(in, c.failure);
    return c;
}

// "rank 2 on n2: no RDMA device; rank 5 on n3: ..." (at most three named).
std::string failures_text(const std::vector<RankCard> &cards) {
    std::string out;
    int named = 0, more = 0;
    for (size_t r = 0; r < cards.size(); ++r) {
        if (cards[r].failure.empty()) continue;
        if (named == 3) {
            ++more;
            continue;
        }
        out += (named++ ? "; rank " : "rank ") + std::to_string(r) + " on " + cards[r].node +
               " cannot take part: " + cards[r].failure;
    }
    if (more) out += "; and " + std::to_string(more) + " more";
    return out;
}

// "rank 2 on n2, rank 3 on n2" for the ranks whose links are still missing.
std::string missing_ranks(const std::vector<std::unique_ptr<Channel>> &links,
                          const std::vector<std::string> &nodes) {
    std::string out;
    for (size_t i = 0; i < links.size(); ++i)
        if (!links[i])
            out +=
                (out.empty() ? "rank " : ", rank ") + std::to_string(i + 1) + " on " + nodes[i + 1];
    return out;
}

// A leaf's first words: Hello, then its terms and rank. nullopt for a
// connection that is no rank of ours (it is dropped, not fatal).
std::optional<std::pair<std::string, int>> read_introduction(Channel &ch) {
    try {
        control::parse_hello(ch.recv(control::kHelloTimeoutMs));
        const Message m = ch.recv(control::kHandshakeTimeoutMs);
        if (m.type != MsgType::Exchange) return std::nullopt;
        control::Reader r(m.payload);
        std::string terms = r.str();
        const int rank = int(r.u32());
        r.finish();
        return std::make_pair(std::move(terms), rank);
    } catch (const control::ControlError &) {
        return std::nullopt;
    }
}

// Rank 0's listener for the other ranks, on an ephemeral port of its
// address (published in `mine`); nullptr, and `mine.failure` set, when it
// cannot listen.
std::unique_ptr<control::Listener> listen_for_ranks(const std::string &host, RankCard &mine) {
    try {
        auto listener = std::make_unique<control::Listener>(host, 0);
        mine.port = std::to_string(listener->port());
        return listener;
    } catch (const std::exception &e) {
        mine.failure = "cannot listen for the other ranks on " + host + ": " + e.what();
        return nullptr;
    }
}

// Every rank's card, by rank, through the launcher.
std::vector<RankCard> exchange_cards(Job &job, const RankCard &mine, int timeout_ms) {
    const std::vector<std::string> all =
        job.allgather(kWireKey, encode(mine), double(timeout_ms) / 1000.0);
    if (all.size() != size_t(job.size()))
        throw MeshError("the launcher's allgather returned " + std::to_string(all.size()) +
                        " records for " + std::to_string(job.size()) + " ranks");
    std::vector<RankCard> cards;
    for (size_t r = 0; r < all.size(); ++r)
        cards.push_back(decode(all[r], int(r)));
    return cards;
}

} // namespace

std::unique_ptr<Mesh> Mesh::join_job(Job &job, const MeshOptions &o,
                                     const std::string &local_failure) {
    const int size = job.size(), rank = job.rank();
    if (size < 2) throw MeshError("a mesh needs at least 2 ranks, the launcher started 1");
    std::unique_ptr<Mesh> m(new Mesh());
    m->peers_ = size;
    m->index_ = rank;
    m->controller_ = rank == 0;
    m->timeout_ms_ = o.timeout_ms;

    RankCard mine{job.node(), o.host, "", local_failure};
    std::unique_ptr<control::Listener> listener;
    if (rank == 0 && mine.failure.empty()) listener = listen_for_ranks(o.host, mine);
    const std::vector<RankCard> cards = exchange_cards(job, mine, o.timeout_ms);
    for (const RankCard &c : cards) {
        m->nodes_.push_back(c.node);
        m->addresses_.push_back(c.address);
    }
    if (const std::string failed = failures_text(cards); !failed.empty()) throw MeshError(failed);
    m->controller_name_ = cards[0].address + ":" + cards[0].port;

    if (m->controller_) {
        m->accept_ranks(*listener, o);
        return m;
    }
    const Expected<uint16_t> port = parse_port(cards[0].port);
    if (!port)
        throw MeshError(m->peer_label(0) + " published no usable port (" + port.error() + ")");
    m->reach_controller(cards[0].address, *port, control::kHandshakeTimeoutMs, o.connect_window_ms,
                        m->peer_label(0) + " at " + m->controller_name_,
                        "is that address reachable from " + mine.node +
                            "? Give each node's address with -B interface (or -b)");
    control::Writer intro;
    intro.str(o.terms).u32(uint32_t(rank));
    const auto [index, peers] = m->introduce(intro.take());
    if (index != rank || peers != size)
        throw MeshError("the controller placed us as peer " + std::to_string(index) + " of " +
                        std::to_string(peers) + ", we are rank " + std::to_string(rank) + " of " +
                        std::to_string(size));
    return m;
}

void Mesh::accept_ranks(control::Listener &listener, const MeshOptions &o) {
    links_.resize(size_t(peers_ - 1));
    const int64_t deadline = now_ms() + o.timeout_ms;
    for (int joined = 0; joined < peers_ - 1;) {
        const int64_t left = deadline - now_ms();
        std::optional<Channel> ch =
            left > 0 ? listener.accept_within(int(left)) : std::optional<Channel>();
        if (!ch)
            fail_everyone("timed out after " + std::to_string(o.timeout_ms / 1000) +
                          " s (--timeout) waiting for " + missing_ranks(links_, nodes_) +
                          " to connect to the controller at " + controller_name_);
        const auto intro = read_introduction(*ch);
        if (!intro) continue; // not one of our ranks
        const int r = intro->second;
        if (r < 1 || r >= peers_ || links_[size_t(r - 1)])
            fail_everyone("a peer at " + ch->peer_name() + " claims rank " + std::to_string(r) +
                          ", which is " +
                          (r < 1 || r >= peers_ ? "outside the job" : "already connected"));
        links_[size_t(r - 1)] = std::make_unique<Channel>(std::move(*ch));
        ++joined;
        if (intro->first != o.terms)
            fail_everyone(peer_label(r) + " runs with other options (" + intro->first +
                          ") than the controller (" + o.terms + ")");
    }
    listener.close();
    place_leaves();
}

} // namespace cmdbench

// The multi-peer control plane (see mesh.hpp).
#include "mesh.hpp"

#include "cmdbench/control/host_port.hpp"
#include "mesh_detail.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <netdb.h>
#include <poll.h>
#include <sstream>
#include <sys/socket.h>
#include <thread>
#include <tuple>
#include <unistd.h>

namespace cmdbench {
namespace {

using namespace mesh_detail;

constexpr size_t kChunk = 512 * 1024; // well below the channel's frame limit
constexpr int kAbortMs = 1000;
constexpr int kConnectRetryMs = 100; // a leaf's pause between tries to reach the controller

std::map<std::string, std::string> parse_terms(const std::string &terms) {
    std::map<std::string, std::string> out;
    std::istringstream in(terms);
    std::string word;
    while (in >> word) {
        const auto eq = word.find('=');
        out[word.substr(0, eq)] = eq == std::string::npos ? "" : word.substr(eq + 1);
    }
    return out;
}

// "" when equal, else "-c 50 where the controller has -c 100".
std::string terms_difference(const std::string &theirs, const std::string &ours) {
    auto a = parse_terms(theirs), b = parse_terms(ours);
    for (const auto &[key, value] : b) {
        auto it = a.find(key);
        const std::string got = it == a.end() ? "(none)" : it->second;
        if (got != value) return key + " " + got + " where the controller has " + key + " " + value;
    }
    for (const auto &[key, value] : a)
        if (!b.count(key)) return key + " " + value + ", unknown to the controller";
    return "";
}

// Binds and listens on the controller address: the fd on success (we are
// the controller), -1 when the address is not ours or taken (a leaf).
int try_bind(const MeshOptions &o) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    addrinfo *ai = nullptr;
    const int rc = getaddrinfo(o.host.c_str(), o.port.c_str(), &hints, &ai);
    if (rc != 0)
        throw MeshError("getaddrinfo error: " + std::string(gai_strerror(rc)) + " (controller " +
                        o.host + ":" + o.port + ")");
    const int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        freeaddrinfo(ai);
        throw MeshError(std::string("socket: ") + std::strerror(errno));
    }
    const int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    // Listen at once: two peers may both bind with SO_REUSEADDR until one
    // of them listens, and only one listen succeeds.
    const int b = bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 ? listen(fd, o.peers) : -1;
    const int err = errno;
    freeaddrinfo(ai);
    if (b == 0) return fd;
    close(fd);
    if (err == EADDRNOTAVAIL || err == EADDRINUSE) return -1;
    throw MeshError("unexpected bind error: " + std::string(std::strerror(err)) + " (" +
                    std::to_string(err) + ")");
}

Channel accept_leaf(int listener, int64_t deadline, const MeshOptions &o, int got) {
    for (;;) {
        const int fd = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd >= 0) {
            const int on = 1;
            setsockopt(fd, IPPROTO_TCP, 1 /* TCP_NODELAY */, &on, sizeof on);
            return Channel(fd);
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED)
            throw MeshError(std::string("accept: ") + std::strerror(errno));
        const int64_t left = deadline - now_ms();
        if (left <= 0)
            throw MeshError("timed out after " + std::to_string(o.timeout_ms) +
                            " ms waiting for peers: " + std::to_string(got) + " of " +
                            std::to_string(o.peers - 1) + " leaves joined (-P " +
                            std::to_string(o.peers) + ")");
        pollfd p{listener, POLLIN, 0};
        poll(&p, 1, int(std::min<int64_t>(left, 1000)));
    }
}

// One mutex per process is enough: sends are short and rare.
std::mutex send_mu;

} // namespace

Mesh::~Mesh() = default;

std::unique_ptr<Mesh> Mesh::join(const MeshOptions &o) {
    if (o.peers < 2) throw MeshError("-P must be at least 2");
    std::unique_ptr<Mesh> m(new Mesh());
    m->peers_ = o.peers;
    m->timeout_ms_ = o.timeout_ms;
    m->controller_name_ = o.host + ":" + o.port;
    const int listener = try_bind(o);
    if (o.on_elected) o.on_elected(listener >= 0);
    if (listener >= 0) {
        m->controller_ = true;
        m->index_ = 0;
        m->names_.push_back(m->controller_name_);
        try {
            const int64_t deadline = now_ms() + o.timeout_ms;
            for (int i = 1; i < o.peers; ++i) {
                auto ch = std::make_unique<Channel>(accept_leaf(listener, deadline, o, i - 1));
                m->names_.push_back(ch->peer_name());
                m->links_.push_back(std::move(ch));
                Message hello = m->recv_from(i, MsgType::Hello, "joining");
                control::parse_hello(hello);
                // Reader keeps a pointer: the message must outlive it.
                const Message announce =
                    m->recv_from(i, MsgType::Exchange, "announcing its options");
                control::Reader r(announce.payload);
                const std::string terms = r.str();
                r.finish();
                const std::string diff = terms_difference(terms, o.terms);
                if (!diff.empty()) m->fail_everyone(m->peer_label(i) + " runs with " + diff);
            }
        } catch (...) {
            close(listener);
            throw;
        }
        close(listener); // a further leaf is refused, as cmtime's
        m->place_leaves();
        return m;
    }
    // A leaf: reach the controller within the window (cmtime tries once).
    const Expected<uint16_t> port = parse_port(o.port);
    if (!port)
        throw MeshError("controller port: " + port.error() + " (expected a number in [1, 65535])");
    m->reach_controller(o.host, *port, 2000, o.connect_window_ms,
                        "the controller at " + m->controller_name_,
                        "is it started, and is -C an address of the controller's host?");
    control::Writer terms;
    terms.str(o.terms);
    int peers = 0;
    std::tie(m->index_, peers) = m->introduce(terms.take());
    if (peers != o.peers)
        throw MeshError("the controller runs with -P " + std::to_string(peers) + ", we with -P " +
                        std::to_string(o.peers));
    return m;
}

void Mesh::reach_controller(const std::string &host, uint16_t port, int attempt_ms, int window_ms,
                            const std::string &who, const std::string &hint) {
    const int64_t window_end = now_ms() + window_ms;
    std::string last;
    for (;;) {
        try {
            links_.push_back(std::make_unique<Channel>(Channel::connect(host, port, attempt_ms)));
            return;
        } catch (const ControlError &e) {
            last = e.what();
        }
        if (now_ms() >= window_end)
            throw MeshError("cannot reach " + who + " within " + std::to_string(window_ms / 1000) +
                            " s (" + last + "); " + hint);
        std::this_thread::sleep_for(std::chrono::milliseconds(kConnectRetryMs));
    }
}

std::pair<int, int> Mesh::introduce(std::vector<uint8_t> intro) {
    send_to(0, control::make_hello(MsgType::Hello, {control::kProtocolVersion, "cmtime"}));
    send_to(0, Message{MsgType::Exchange, std::move(intro)});
    const Message placed = recv_from(0, MsgType::Exchange, "the peer index");
    control::Reader r(placed.payload);
    const int index = int(r.u32()), peers = int(r.u32());
    r.finish();
    return {index, peers};
}

void Mesh::place_leaves() {
    for (int i = 1; i < peers_; ++i) {
        control::Writer w;
        w.u32(uint32_t(i)).u32(uint32_t(peers_));
        send_to(i, Message{MsgType::Exchange, w.take()});
    }
}

std::string Mesh::peer_label(int index) const {
    if (size_t(index) < nodes_.size())
        return "rank " + std::to_string(index) + " on " + nodes_[index] +
               (index == 0 ? " (the controller)" : "");
    if (index == 0) return "the controller (" + controller_name_ + ")";
    const std::string name = size_t(index) < names_.size() ? " (" + names_[index] + ")" : "";
    return "peer " + std::to_string(index) + name;
}

void Mesh::send_to(int index, const Message &m) {
    Channel &ch = *links_[controller() ? index - 1 : 0];
    std::lock_guard<std::mutex> lock(send_mu);
    ch.send(m, timeout_ms_);
}

Message Mesh::recv_from(int index, MsgType want, const std::string &what) {
    Channel &ch = *links_[controller() ? index - 1 : 0];
    Message m;
    try {
        m = ch.recv(timeout_ms_);
    } catch (const ControlError &e) {
        const std::string why = peer_label(index) + " did not answer (" + what + "): " + e.what();
        if (controller()) fail_everyone(why);
        throw MeshError(why);
    }
    if (m.type == MsgType::Error) {
        const std::string text = control::parse_string(m);
        // A leaf's failure is news for everyone; the controller's message
        // already names the peer that failed.
        if (controller()) fail_everyone(peer_label(index) + " failed: " + text);
        throw MeshError(text);
    }
    if (m.type != want) {
        const std::string why = peer_label(index) + " sent message type " +
                                std::to_string(unsigned(m.type)) + " while " + what;
        if (controller()) fail_everyone(why);
        throw MeshError(why);
    }
    return m;
}

void Mesh::fail_everyone(const std::string &why) {
    abort(why);
    throw MeshError(why);
}

void Mesh::abort(const std::string &why) {
    const Message m = control::make_string(MsgType::Error, why);
    std::lock_guard<std::mutex> lock(send_mu);
    for (auto &ch : links_) {
        if (!ch) continue; // a rank not connected yet (join_job)
        try {
            ch->send(m, kAbortMs);
        } catch (const ControlError &) {
        }
    }
}

void Mesh::barrier(const std::string &name) {
    const std::string what = "barrier '" + name + "'";
    if (!controller()) {
        send_to(0, control::make_string(MsgType::Barrier, name));
        const std::string got = control::parse_string(recv_from(0, MsgType::Barrier, what));
        if (got != name)
            throw MeshError("the controller released barrier '" + got + "' while we wait in '" +
                            name + "'");
        return;
    }
    for (int i = 1; i < peers_; ++i) {
        const std::string got = control::parse_string(recv_from(i, MsgType::Barrier, what));
        if (got != name)
            fail_everyone(peer_label(i) + " is in barrier '" + got + "', the controller in '" +
                          name + "'");
    }
    for (int i = 1; i < peers_; ++i)
        send_to(i, control::make_string(MsgType::Barrier, name));
}

void Mesh::send_blob(int index, const std::vector<uint8_t> &bytes) {
    // The length as recv_blob reads it (control::Reader).
    send_to(index, Message{MsgType::Exchange, control::Writer().u64(bytes.size()).take()});
    for (size_t off = 0; off < bytes.size(); off += kChunk) {
        const size_t n = std::min(kChunk, bytes.size() - off);
        send_to(index,
                Message{MsgType::Exchange, std::vector<uint8_t>(bytes.begin() + long(off),
                                                                bytes.begin() + long(off + n))});
    }
}

std::vector<uint8_t> Mesh::recv_blob(int index, const std::string &what) {
    const Message head = recv_from(index, MsgType::Exchange, what);
    control::Reader r(head.payload);
    const uint64_t total = r.u64();
    r.finish();
    std::vector<uint8_t> out;
    while (out.size() < total) {
        Message m = recv_from(index, MsgType::Exchange, what);
        if (m.payload.empty() || m.payload.size() > total - out.size())
            throw MeshError(peer_label(index) + " sent a malformed block while " + what);
        out.insert(out.end(), m.payload.begin(), m.payload.end());
    }
    return out;
}

std::vector<std::vector<uint8_t>> Mesh::gather(const std::vector<uint8_t> &mine) {
    if (!controller()) {
        send_blob(0, mine);
        return {};
    }
    std::vector<std::vector<uint8_t>> all{mine};
    for (int i = 1; i < peers_; ++i)
        all.push_back(recv_blob(i, "gathering results"));
    return all;
}

std::vector<std::vector<uint8_t>> Mesh::allgather(const std::vector<uint8_t> &mine) {
    std::vector<std::vector<uint8_t>> all = gather(mine);
    if (controller()) {
        for (int i = 1; i < peers_; ++i)
            for (const auto &blob : all)
                send_blob(i, blob);
        return all;
    }
    for (int i = 0; i < peers_; ++i)
        all.push_back(recv_blob(0, "receiving the peer table"));
    return all;
}

} // namespace cmdbench
